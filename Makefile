# combosim — build, test, bench, install.  `make run` and `make test` are the quick start.
# Builds go to build/<mode>/ (objects) and bin/ (programs).  `make debug test` runs the tests
# under AddressSanitizer + UndefinedBehaviorSanitizer with invariant checks on.

PREFIX   ?= /usr/local
CC       ?= cc
MODE     ?= release
ifneq ($(filter debug,$(MAKECMDGOALS)),)
MODE     := debug
endif
PKGS     := gsl libcjson zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# On a fresh machine the packages (pkg-config too) arrive only when `deps` runs, after this line
# was read: fall back to the Debian link flags so the first `make test` links all the same.
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lgsl -lgslcblas -lcjson -lz)

WARN     := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Wno-format-truncation
DEFS     := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
ifeq ($(MODE),debug)
OPT      := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DCOMBOSIM_DEBUG=1
LDSAN    := -fsanitize=address,undefined
else
# Link-time optimisation lets the engine's small cross-file calls (the event queue's push, pop
# and peek from residency.c and dispatch.c) inline: -O3 + LTO cut the COMBO 10k-frame run's
# time 12 % (bench/results/lto_prediction.txt).  GCC with gcc-ar only (the archiver below);
# `make LTO=` builds without it.
ifeq ($(origin LTO),undefined)
LTO      := $(if $(and $(shell $(CC) -v 2>&1 | grep '^gcc version'),$(shell command -v gcc-ar)),-flto=auto)
endif
OPT      := -O3 -g $(LTO)
LDSAN    := -O3 $(LTO)
endif
# an archive of LTO objects needs the compiler's archiver (its plugin writes the symbol index)
AR       := $(if $(LTO),gcc-ar,ar)
CFLAGS   += $(WARN) $(DEFS) $(OPT) -I. $(PKG_CFLAGS)
LDLIBS   += $(PKG_LIBS) -lm
BUILD    := build/$(MODE)
BIN      := bin
ifeq ($(MODE),debug)
BIN      := bin/debug
endif

LAYERS   := base models traces policies exp sim app
LIB_SRC  := $(filter-out app/main.c,$(foreach d,$(LAYERS),$(wildcard $(d)/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC:= $(wildcard bench/*.c)
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

.SECONDARY:
.PHONY: all run test debug bench deps deps-test install clean figures fuzz FORCE
all: deps $(BIN)/combosim

deps:
	@scripts/deps.sh build
# After deps: two apt-gets at once (make -j) would fight over the dpkg lock.
deps-test: deps
	@scripts/deps.sh test

# Order-only: under make -j nothing compiles before the packages it includes are installed.
$(BUILD)/%.o: %.c $(foreach d,$(LAYERS),$(wildcard $(d)/*.h)) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# the version string is rebuilt whenever `git describe` changes, not only when runner.c does
$(TEST_SRC:%.c=$(BUILD)/%.o): | deps-test
$(BUILD)/version.h: FORCE
	@mkdir -p $(BUILD)
	@echo '#define COMBOSIM_VERSION "$(VERSION)"' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/app/runner.o: $(BUILD)/version.h
$(BUILD)/app/runner.o: CFLAGS += -include $(BUILD)/version.h
# the data directory compiled in (base/datadir.h): PREFIX given to `make install` rebuilds it
DATADIR  := $(PREFIX)/share/combosim
$(BUILD)/datadir.h: FORCE
	@mkdir -p $(BUILD)
	@echo '#define COMBOSIM_DATADIR "$(DATADIR)"' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/base/datadir.o: $(BUILD)/datadir.h
$(BUILD)/base/datadir.o: CFLAGS += -include $(BUILD)/datadir.h
FORCE:

$(BUILD)/libcombosim.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN)/combosim: $(BUILD)/app/main.o $(BUILD)/libcombosim.a
	@mkdir -p $(BIN)
	$(CC) $(LDSAN) -o $@ $^ $(LDLIBS)

$(BIN)/combosim-tests: $(TEST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/libcombosim.a
	@mkdir -p $(BIN)
	$(CC) $(LDSAN) -o $@ $^ -lcunit $(LDLIBS)

$(BIN)/bench-%: $(BUILD)/bench/%.o $(BUILD)/libcombosim.a
	@mkdir -p $(BIN)
	$(CC) $(LDSAN) -o $@ $^ $(LDLIBS)

# The main job: runs the shipped default experiment and prints its comparison table.
run: all
	$(BIN)/combosim run experiments/default.json --out results/default

# Unit tests, end-to-end tests, then the reproductions' checks.  Exit status is the verdict.
FUZZ_HARNESSES := experiment traces sweep gpu
test: deps deps-test $(BIN)/combosim $(BIN)/combosim-tests $(FUZZ_HARNESSES:%=$(BIN)/fuzz-replay-%) $(BIN)/mutate-experiments
	COMBOSIM=$(BIN)/combosim $(BIN)/combosim-tests
	COMBOSIM=$(BIN)/combosim sh tests/layers.sh
	COMBOSIM=$(BIN)/combosim sh tests/e2e.sh
	COMBOSIM=$(BIN)/combosim sh tests/e2e_traces.sh
	COMBOSIM=$(BIN)/combosim sh tests/e2e_hardening.sh
	COMBOSIM=$(BIN)/combosim sh tests/e2e_plot.sh
	COMBOSIM=$(BIN)/combosim sh tests/e2e_validate.sh
	@# tests/compare.sh runs each family's tiny version; under the debug build's sanitizers and
	@# invariant checks its H100 closed-loop runs (dispatch timing, sim/timing.c: 20 s in release
	@# for each 2 s vGASA run) take too long, so the debug pass leaves it to the release one
	[ "$(MODE)" = debug ] || COMBOSIM=$(BIN)/combosim sh tests/compare.sh
	@# the fit scripts against the descriptions they wrote (Python; the engine under them is
	@# the release one's, so the debug pass skips it too)
	[ "$(MODE)" = debug ] || COMBOSIM=$(BIN)/combosim sh tests/describe_gpu.sh
	COMBOSIM=$(BIN)/combosim sh tests/readme.sh
	sh tests/validation_runs.sh
	MAKE="$(MAKE) MODE=$(MODE)" sh tests/install.sh
	for h in $(FUZZ_HARNESSES); do $(BIN)/fuzz-replay-$$h tests/fuzz/corpus/$$h tests/fuzz/crashes/$$h || exit 1; done
	$(BIN)/mutate-experiments $(MUTATE_EXPERIMENTS)

# The mutation corpus: every key of each shipped experiment deleted, retyped and put out of
# range (tests/mutate/mutate.c); each mutant must load or fail with a precise error, never crash.
MUTATE_EXPERIMENTS := experiments/default.json experiments/combo/table3.json experiments/combo/fig4_fig7.json \
	experiments/combo/table6.json experiments/combo/overhead.json experiments/workloads/kernel_level_example.json \
	experiments/workloads/memcheck.json experiments/workloads/quake2_dynamic_dnn.json \
	experiments/workloads/quake2_dynamic_mriq.json
$(BIN)/mutate-experiments: $(BUILD)/tests/mutate/mutate.o $(BUILD)/libcombosim.a
	@mkdir -p $(BIN)
	$(CC) $(LDSAN) -o $@ $^ $(LDLIBS)

# The fuzz corpus and every crash ever found, replayed without libFuzzer.
$(BIN)/fuzz-replay-%: $(BUILD)/tests/fuzz/replay.o $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/libcombosim.a
	@mkdir -p $(BIN)
	$(CC) $(LDSAN) -o $@ $^ $(LDLIBS)

# `make fuzz`: libFuzzer (clang) on each harness for FUZZ_SECONDS each; new corpus entries go to
# tests/fuzz/corpus/<harness>/, crashes to tests/fuzz/crashes/<harness>/ (commit both).
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I. $(PKG_CFLAGS)
fuzz: deps
	@command -v clang >/dev/null || { echo "fuzz: needs clang (apt-get install -y clang)"; exit 2; }
	@mkdir -p build/fuzz $(FUZZ_HARNESSES:%=tests/fuzz/crashes/%)
	for h in $(FUZZ_HARNESSES); do \
		clang $(FUZZ_CFLAGS) -o build/fuzz/fuzz-$$h tests/fuzz/fuzz_$$h.c $(LIB_SRC) $(PKG_LIBS) -lm && \
		build/fuzz/fuzz-$$h -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix=tests/fuzz/crashes/$$h/ tests/fuzz/corpus/$$h || exit 1; \
	done

# `make debug test`: the same under ASan + UBSan (separate build tree and bin/debug/).
debug: deps $(BIN)/combosim

bench: all $(patsubst bench/%.c,$(BIN)/bench-%,$(BENCH_SRC))
	sh bench/run.sh $(BIN)
	sh bench/engine_runs.sh $(BIN)

# Every reproduced paper figure: runs the reproductions (workloads generated first), writes
# each one's reproduction.csv and RESULTS.md under build/figures/, draws plots/out/*.png with
# gnuplot; the tracked tree stays as it was (`make results` copies the write-ups).  Measured
# per recipe line by bench/figures_time.sh on the idle 2-core development machine from an
# empty build/figures (bench/results/figures_time.txt): 79 s wall, 120 s user + 4 s system
# CPU, all four papers (COMBO's runs 16 s each); the length checks are `make
# figures-stability`.  The sweeps start afresh: a
# sweep resumes finished runs, which would keep results of an older binary.
FIG := build/figures
figures: all
	@command -v gnuplot >/dev/null || scripts/deps.sh all
	rm -rf $(FIG)/fig2 $(FIG)/fig13 $(FIG)/fig16_17
	sh experiments/combo/fig13/workloads.sh $(BIN)/combosim experiments/combo/workloads
	sh experiments/combo/fig15/workloads.sh $(BIN)/combosim experiments/combo/workloads
	$(BIN)/combosim run experiments/combo/table3.json -q --out $(FIG)/table3
	$(BIN)/combosim run experiments/combo/fig4_fig7.json -q --out $(FIG)/fig4_fig7
	$(BIN)/combosim run experiments/combo/table6.json -q --out $(FIG)/table6a
	$(BIN)/combosim run experiments/combo/table6.json -q --set games[0].trace=table6/dynamic.csv --out $(FIG)/table6b
	sh experiments/combo/table6/report.sh $(FIG)/table6a $(FIG)/table6b $(FIG)/table6
	$(BIN)/combosim sweep experiments/combo/fig13_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig13
	sh experiments/combo/fig13/report.sh $(FIG)/fig13 $(FIG)/fig13/report
	sh experiments/combo/fig13/workloads.sh $(BIN)/combosim experiments/combo/workloads-d2 high 2
	rm -rf $(FIG)/fig13_draws
	$(BIN)/combosim sweep experiments/combo/fig13_draws_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig13_draws
	sh experiments/combo/fig13/draws_report.sh $(FIG)/fig13 $(FIG)/fig13_draws $(FIG)/fig13_draws/report
	sh experiments/combo/fig13/workloads.sh $(BIN)/combosim experiments/combo/workloads-medium medium
	rm -rf $(FIG)/fig13_medium
	$(BIN)/combosim sweep experiments/combo/fig13_medium_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig13_medium
	sh experiments/combo/fig13/sensitivity.sh $(FIG)/fig13_medium $(FIG)/fig13_medium/report medium "games at medium quality"
	rm -rf $(FIG)/fig13_split
	$(BIN)/combosim sweep experiments/combo/fig13_split_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig13_split
	sh experiments/combo/fig13/split_report.sh $(FIG)/fig13 $(FIG)/fig13_split $(FIG)/fig13_split/report
	sh experiments/combo/fig13/exit_gpu.sh experiments/combo/gpus/rtx3090-h100-exit.json
	rm -rf $(FIG)/fig13_exit
	$(BIN)/combosim sweep experiments/combo/fig13_exit_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig13_exit
	sh experiments/combo/fig13/sensitivity.sh $(FIG)/fig13_exit $(FIG)/fig13_exit/report exithold "the RTX 3090 with the H100's measured exit time of SM-bound blocks"
	rm -rf $(FIG)/fig13_x2 $(FIG)/fig2_x2 $(FIG)/fig16_17_x2 $(FIG)/fig13_modes8s $(FIG)/stability
	$(BIN)/combosim sweep experiments/combo/fig2_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig2
	sh experiments/combo/fig2/report.sh $(FIG)/fig2 $(FIG)/fig2/report
	$(BIN)/combosim sweep experiments/combo/fig16_17_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig16_17
	sh experiments/combo/fig16_17/report.sh $(FIG)/fig13 $(FIG)/fig16_17 $(FIG)/fig16_17/report
	$(BIN)/combosim run experiments/combo/fig15.json -q --out $(FIG)/fig15
	sh experiments/combo/fig15/report.sh $(FIG)/fig15 $(FIG)/fig15/report
	$(BIN)/combosim run experiments/combo/fig18.json -q --out $(FIG)/fig18
	sh experiments/combo/fig18/report.sh $(FIG)/fig18 experiments/combo/workloads/steel.csv 480 $(FIG)/fig18/report
	$(BIN)/combosim run experiments/combo/overhead.json -q --out $(FIG)/overhead
	sh experiments/combo/overhead/report.sh $(FIG)/overhead $(FIG)/overhead/report
	@mkdir -p plots/out
	gnuplot -e "in='$(FIG)/table3/reproduction.csv'; out='plots/out/table3.png'; name='COMBO Table 3 (calibration inputs: a consistency check, not a reproduction)'" plots/reproduction.gp
	gnuplot -e "in='$(FIG)/fig4_fig7/reproduction.csv'; out='plots/out/fig4_fig7.png'; name='COMBO Fig. 4 and 7'" plots/reproduction.gp
	gnuplot -e "in='$(FIG)/fig4_fig7/corun.csv'; out='plots/out/fig4_fig7_pairs.png'" plots/fig4_fig7_pairs.gp
	gnuplot -e "in='$(FIG)/table6/reproduction.csv'; out='plots/out/table6.png'; name='COMBO Table 6'" plots/reproduction.gp
	gnuplot -e "in='$(FIG)/fig13/report/fig13.csv'; out='plots/out/fig13.png'" plots/fig13.gp
	gnuplot -e "in='$(FIG)/fig13/report/reproduction.csv'; out='plots/out/fig13_games.png'" plots/fig13_games.gp
	gnuplot -e "in='$(FIG)/fig13/report/fig14.csv'; out='plots/out/fig14.png'" plots/fig14.gp
	gnuplot -e "in='$(FIG)/fig13_draws/report/fig13_draws.csv'; out='plots/out/fig13_draws.png'" plots/fig13_draws.gp
	gnuplot -e "in='$(FIG)/fig2/report/fig2.csv'; out='plots/out/fig2.png'" plots/fig2.gp
	gnuplot -e "in='$(FIG)/fig16_17/report/fig16.csv'; out='plots/out/fig16.png'" plots/fig16.gp
	gnuplot -e "in='$(FIG)/fig16_17/report/fig17.csv'; out='plots/out/fig17.png'" plots/fig17.gp
	gnuplot -e "in='$(FIG)/fig15/report/headroom.csv'; out='plots/out/fig15.png'" plots/fig15.gp
	gnuplot -e "in='$(FIG)/fig18/report/fig18.csv'; out='plots/out/fig18.png'" plots/fig18.gp
	gnuplot -e "in='$(FIG)/overhead/report/reproduction.csv'; out='plots/out/overhead.png'" plots/overhead.gp
	sh experiments/combo/results.sh $(FIG) $(FIG)/combo/RESULTS.md
	$(MAKE) --no-print-directory figures-vgasa
	$(MAKE) --no-print-directory figures-smqos
	$(MAKE) --no-print-directory figures-gspace

.PHONY: figures-stability
# The length checks of COMBO Fig. 2, 13/14 and 16/17 (not part of `make figures`, which leaves
# their RESULTS.md rows "not run"; run after `make figures`, they add their rows and rewrite
# build/figures/combo/RESULTS.md).  Run length: the same runs twice as long, 4 cycles of the
# load modes instead of 2 (experiments/combo/workloads-x2; fig13_x2_sweep.json, the Fig. 2 and
# 16/17 copies written under $(FIG)/stability by fig13/make_long_sweep.py).  Mode length (an
# assumption the paper's traces would fix): 2 cycles of stretches twice as long, 960 + 960
# frames (rows fig13_modes8s_*).
STAB := $(FIG)/stability
figures-stability: all
	sh experiments/combo/fig13/workloads.sh $(BIN)/combosim experiments/combo/workloads-x2 high 1 4
	sh experiments/combo/fig13/workloads.sh $(BIN)/combosim $(STAB)/workloads-modes8s high 1 2 960
	rm -rf $(FIG)/fig13_x2 $(FIG)/fig2_x2 $(FIG)/fig16_17_x2 $(FIG)/fig13_modes8s $(STAB)/*.json
	$(BIN)/combosim sweep experiments/combo/fig13_x2_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig13_x2
	sh experiments/combo/fig13/sensitivity.sh $(FIG)/fig13_x2 $(FIG)/fig13_x2/report x2 "run-length check: 4 cycles of the load modes, 32 s per run"
	python3 experiments/combo/fig13/make_long_sweep.py experiments/combo/fig2_sweep.json 2 experiments/combo/workloads-x2 $(STAB)/fig2_x2_sweep.json "4 cycles of the load modes"
	$(BIN)/combosim sweep $(STAB)/fig2_x2_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig2_x2
	sh experiments/combo/fig2/report.sh $(FIG)/fig2_x2 $(FIG)/fig2_x2/report
	sh experiments/combo/fig13/retag.sh $(FIG)/fig2_x2/report/reproduction.csv x2 "run-length check: 4 cycles of the load modes, 32 s per run"
	python3 experiments/combo/fig13/make_long_sweep.py experiments/combo/fig16_17_sweep.json 2 experiments/combo/workloads-x2 $(STAB)/fig16_17_x2_sweep.json "4 cycles of the load modes"
	$(BIN)/combosim sweep $(STAB)/fig16_17_x2_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig16_17_x2
	sh experiments/combo/fig16_17/report.sh $(FIG)/fig13_x2 $(FIG)/fig16_17_x2 $(FIG)/fig16_17_x2/report
	sh experiments/combo/fig13/retag.sh $(FIG)/fig16_17_x2/report/reproduction.csv x2 "run-length check: 4 cycles of the load modes, 32 s per run"
	python3 experiments/combo/fig13/make_long_sweep.py experiments/combo/fig13_sweep.json 2 $(STAB)/workloads-modes8s $(STAB)/fig13_modes8s_sweep.json "2 cycles of 960 stable-load and 960 dynamic-load frames"
	$(BIN)/combosim sweep $(STAB)/fig13_modes8s_sweep.json -j $(or $(JOBS),2) --out $(FIG)/fig13_modes8s
	sh experiments/combo/fig13/sensitivity.sh $(FIG)/fig13_modes8s $(FIG)/fig13_modes8s/report modes8s "mode length: 8 s stretches of each load mode, 2 cycles, 32 s per run"
	sh experiments/combo/results.sh $(FIG) $(FIG)/combo/RESULTS.md

# reproduction.csv under build/figures/vgasa/report, plots/out/vgasa_*.png, experiments/vgasa/RESULTS.md
.PHONY: figures-vgasa
figures-vgasa: all
	@command -v gnuplot >/dev/null || scripts/deps.sh all
	$(BIN)/combosim run experiments/vgasa/fig7_uncal.json -q --out $(FIG)/vgasa/fig7_uncal
	sh experiments/vgasa/calibrate.sh $(FIG)/vgasa/fig7_uncal >/dev/null
	@command -v parallel >/dev/null || scripts/deps.sh all
	@# independent runs, as many at once as the sweeps run (GNU parallel; the first failure stops it)
	printf '%s\n' fig7 fig8 fig9 consolidation consolidation_sc2 be | parallel --will-cite -j $(or $(JOBS),2) \
		--halt now,fail=1 '$(BIN)/combosim run experiments/vgasa/{}.json -q --out $(FIG)/vgasa/{}'
	sh experiments/vgasa/report.sh $(FIG)/vgasa/fig7 $(FIG)/vgasa/fig8 $(FIG)/vgasa/fig9 \
		$(FIG)/vgasa/consolidation $(FIG)/vgasa/be $(FIG)/vgasa/fig7_uncal $(FIG)/vgasa/consolidation_sc2 \
		$(FIG)/vgasa/report >/dev/null
	@mkdir -p plots/out
	gnuplot -e "dir='$(FIG)/vgasa/report'; out='plots/out/vgasa_fig7.png'" plots/vgasa_fig7.gp
	gnuplot -e "in='$(FIG)/vgasa/report/fig8.csv'; rep='$(FIG)/vgasa/report/reproduction.csv'; out='plots/out/vgasa_fig8.png'" plots/vgasa_fig8.gp
	sh experiments/vgasa/results.sh $(FIG)/vgasa/report $(FIG)/vgasa/RESULTS.md

# SMQoS (experiments/smqos/): 132 LS + batch pairs under every policy (Fig. 7, 8, 11-13,
# Static-SMQoS), Fig. 9, 10 and 14, Fig. 20-21 (A100: RH-SMQoS vs MIG); reproduction.csv under build/figures/smqos/report,
# plots/out/smqos_*.png, experiments/smqos/RESULTS.md
.PHONY: figures-smqos
figures-smqos: all
	@command -v gnuplot >/dev/null || scripts/deps.sh all
	@# a sweep resumes the points it finds done: stale runs of an older binary must not count
	rm -rf $(FIG)/smqos
	for x in pairs fig9 fig10 fig14 h100_rh; do \
		$(BIN)/combosim sweep experiments/smqos/$${x}_sweep.json -j $(or $(JOBS),2) --out $(FIG)/smqos/$$x >/dev/null || exit 1; done
	sh experiments/smqos/report.sh $(FIG)/smqos/pairs $(FIG)/smqos/fig9 $(FIG)/smqos/fig10 \
		$(FIG)/smqos/fig14 $(FIG)/smqos/h100_rh $(FIG)/smqos/report >/dev/null
	$(BIN)/combosim sweep experiments/smqos/a100_mig_sweep.json -j $(or $(JOBS),2) --out $(FIG)/smqos/a100_mig >/dev/null
	sh experiments/smqos/mig_report.sh $(FIG)/smqos/a100_mig $(FIG)/smqos/report >/dev/null
	@mkdir -p plots/out
	gnuplot -e "dir='$(FIG)/smqos/report'; out='plots/out/smqos_fig7_8.png'" plots/smqos_qos.gp
	gnuplot -e "dir='$(FIG)/smqos/report'; out='plots/out/smqos_fig9_10_12.png'" plots/smqos_alloc.gp
	gnuplot -e "dir='$(FIG)/smqos/report'; out='plots/out/smqos_fig20_21.png'" plots/smqos_fig20.gp
	gnuplot -e "dir='$(FIG)/smqos/report'; out='plots/out/smqos_fig15_16.png'" plots/smqos_rh.gp
	sh experiments/smqos/results.sh $(FIG)/smqos/report $(FIG)/smqos/RESULTS.md

# G-Space (experiments/gspace/): Fig. 2 (no yield), Fig. 3-4 (solo scalability), Fig. 5-6
# (280 blocks yielded), Fig. 9-10 (prediction errors, searches against brute force);
# reproduction.csv under build/figures/gspace/report, plots/out/gspace_*.png,
# experiments/gspace/RESULTS.md
.PHONY: figures-gspace
figures-gspace: all
	@command -v gnuplot >/dev/null || scripts/deps.sh all
	rm -rf $(FIG)/gspace
	for x in fig2 fig34 fig56 search; do \
		$(BIN)/combosim sweep experiments/gspace/$${x}_sweep.json -j $(or $(JOBS),2) --out $(FIG)/gspace/$$x >/dev/null || exit 1; done
	sh experiments/gspace/report.sh $(FIG)/gspace/fig2 $(FIG)/gspace/fig34 $(FIG)/gspace/fig56 \
		$(FIG)/gspace/search $(FIG)/gspace/report >/dev/null
	@mkdir -p plots/out
	gnuplot -e "dir='$(FIG)/gspace/report'; out='plots/out/gspace_fig2_6.png'" plots/gspace_motivation.gp
	gnuplot -e "dir='$(FIG)/gspace/report'; out='plots/out/gspace_fig9_10.png'" plots/gspace_search.gp
	sh experiments/gspace/results.sh $(FIG)/gspace/report $(FIG)/gspace/RESULTS.md

# `make figures` (and figures-vgasa, -smqos, -gspace) leave the tracked tree as it was: each
# paper's RESULTS.md goes to build/figures/<paper>/RESULTS.md.  `make results` copies those
# that exist into experiments/<paper>/RESULTS.md, the tracked write-ups, to commit with the
# change they reflect.
.PHONY: results
results:
	@for p in combo vgasa smqos gspace; do \
		if [ -f $(FIG)/$$p/RESULTS.md ]; then cp $(FIG)/$$p/RESULTS.md experiments/$$p/RESULTS.md && \
			echo "experiments/$$p/RESULTS.md <- $(FIG)/$$p/RESULTS.md"; fi; done

# Every policy on the same workloads (experiments/compare/): four families (COMBO, vGASA,
# SMQoS, G-Space workloads) on the RTX 3090 and the H100 descriptions, each policy that applies
# and the oracle (best static split meeting QoS); one table and one figure per family under
# build/compare/report and plots/out/compare_*.png, experiments/compare/README.md regenerated.
# The experiment files are tracked (experiments/compare/generate.py writes them from spec/).
# About 15 minutes on two cores since the H100 block drain (sim/drain.c: the vGASA H100 sweep
# most of it; 4 minutes before it); refine.py adds the oracle's runs at the QoS cliffs.
CMP := build/compare
.PHONY: compare
compare: all
	@command -v gnuplot >/dev/null || scripts/deps.sh all
	rm -rf $(CMP)
	for f in experiments/compare/*_sweep.json; do \
		$(BIN)/combosim sweep $$f -j $(or $(JOBS),2) --out $(CMP)/$$(basename $$f _sweep.json) >/dev/null || exit 1; done
	python3 experiments/compare/refine.py experiments/compare $(CMP) >$(CMP)/refine.txt
	xargs -P $(or $(JOBS),2) -I{} sh -c 'f={}; $(BIN)/combosim run "$$f" -q --out "$${f%.json}" >/dev/null' <$(CMP)/refine.txt
	python3 experiments/compare/reduce.py experiments/compare $(CMP) $(CMP)/report --check
	@mkdir -p plots/out
	while IFS='	' read -r f t g; do \
		gnuplot -e "dir='$(CMP)/report'; fam='$$f'; title='$$t'; gpus='$$g'; out='plots/out/compare_$$f.png'" plots/compare.gp || exit 1; \
	done <$(CMP)/report/families.txt
	sh experiments/compare/check_runs.sh $(BIN)/combosim $(CMP)/h100check-sim >/dev/null
	python3 experiments/compare/reduce.py experiments/compare/h100check $(CMP)/h100check-sim $(CMP)/h100check-sim/report
	mkdir -p $(CMP)/h100check-gpu && tar xzf cuda/runs/h100-compare2/run.tgz -C $(CMP)/h100check-gpu
	python3 experiments/compare/reduce.py experiments/compare/h100check $(CMP)/h100check-gpu/r $(CMP)/h100check-gpu/r/report
	python3 experiments/compare/rank.py $(CMP)/h100check-sim/report $(CMP)/h100check-gpu/r/report $(CMP)/report/h100check.md
	python3 experiments/compare/results.py $(CMP)/report experiments/compare/README.in.md experiments/compare/README.md

# Programs, man page, docs, and under DATADIR what the installed program looks up
# (base/datadir.h): GPU models, shipped traces (not the raw captures), experiments.
# DESTDIR stages the tree (packaging); the program still looks in PREFIX, and beside itself.
DATA_FILES = $(wildcard models/*.json traces/dnn/*.json traces/dnn/rtx3090/*.json) traces/README.md \
	$(shell find traces/games traces/be traces/smqos traces/gspace traces/samples experiments -type f)
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/doc/combosim
	install -m 755 $(BIN)/combosim $(DESTDIR)$(PREFIX)/bin/
	[ ! -f bin/combosim-cuda ] || install -m 755 bin/combosim-cuda $(DESTDIR)$(PREFIX)/bin/
	install -m 644 docs/combosim.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/combosim/
	@for f in $(DATA_FILES); do \
		install -D -m $$([ -x $$f ] && echo 755 || echo 644) $$f $(DESTDIR)$(DATADIR)/$$f || exit 1; done
	@echo "installed data: $(DESTDIR)$(DATADIR) ($(words $(DATA_FILES)) files)"

clean:
	rm -rf build bin results

# ---- CUDA backend (cuda/) ----------------------------------------------------------------
# bin/combosim-cuda is built by `all` and `test` only when nvcc is found (PATH, then
# /usr/local/cuda/bin); skipped otherwise.  Its CPU-side parts (bin/combosim-cuda-tests) need
# no CUDA and always run under `make test`.  Debug builds skip the nvcc-linked program.
NVCC          ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
CUDA_ARCH     := -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80
# CPU-side parts (no CUDA runtime): tested by bin/combosim-cuda-tests, the host loop on a fake device
CUDA_CPU_OBJ  := $(patsubst %.c,$(BUILD)/%.o,cuda/ck.c cuda/bvh.c cuda/calib.c cuda/placement.c cuda/timeline_out.c \
		 cuda/launch.c cuda/backend.c cuda/hostrun.c cuda/hostloop.c cuda/hostclosed.c cuda/hostprogress.c \
		 cuda/hostreshape.c cuda/hostrelaunch.c \
		 cuda/report.c)
CUDA_HOST_OBJ := $(CUDA_CPU_OBJ) $(BUILD)/cuda/bench.o $(BUILD)/cuda/bench_progress.o $(BUILD)/cuda/bench_reshape.o $(BUILD)/cuda/bench_pairs.o $(BUILD)/cuda/bench_pileup.o $(BUILD)/cuda/bench_launch.o $(BUILD)/cuda/bench_power.o $(BUILD)/cuda/hostdev.o $(BUILD)/cuda/runner.o $(BUILD)/cuda/main.o
CUDA_TEST_OBJ := $(BUILD)/cuda/test_ck.o $(BUILD)/cuda/test_hostloop.o $(BUILD)/cuda/test_hosthooks.o \
		 $(BUILD)/cuda/test_hostreshape.o $(BUILD)/cuda/test_hostrelaunch.o \
		 $(BUILD)/cuda/testfake.o $(BUILD)/cuda/fakegpu.o
CUDA_HDR      := $(wildcard cuda/*.h)
CUDA_PROG     := $(if $(and $(NVCC),$(filter release,$(MODE))),bin/combosim-cuda)
.PHONY: cuda cuda-test cuda-validation
all: $(CUDA_PROG)
test: cuda-test
cuda: $(CUDA_PROG)
$(CUDA_HOST_OBJ) $(CUDA_TEST_OBJ): $(CUDA_HDR)
# CUnit: the packages first (under -j the tests would compile before deps-test installs them)
$(CUDA_TEST_OBJ): | deps-test
$(BUILD)/cuda/kernels.o: cuda/kernels.cu cuda/ck.h cuda/check.h | deps
	@mkdir -p $(dir $@)
	$(NVCC) -std=c++17 -O3 -I. $(CUDA_ARCH) -c $< -o $@
bin/combosim-cuda: $(CUDA_HOST_OBJ) $(BUILD)/cuda/kernels.o $(BUILD)/libcombosim.a
	@mkdir -p bin
	$(NVCC) -o $@ $^ $(PKG_LIBS) -lm
$(BIN)/combosim-cuda-tests: $(CUDA_TEST_OBJ) $(CUDA_CPU_OBJ) $(BUILD)/libcombosim.a
	@mkdir -p $(BIN)
	$(CC) $(LDSAN) -o $@ $^ -lcunit $(LDLIBS)
cuda-test: deps-test $(BIN)/combosim-cuda-tests $(CUDA_PROG)
	$(BIN)/combosim-cuda-tests
# The stored PyTorch captures (cuda/runs/h100-pytorch-validate) through combosim validate --real:
# their reports, and the trimmed copy's report tests/e2e_validate.sh compares against.
.PHONY: validate-real
validate-real: $(BIN)/combosim
	sh cuda/scripts/validate_real.sh $(BIN)/combosim
# cuda/VALIDATION.md from the stored runs under cuda/runs/ (no GPU needed)
cuda-validation: $(BIN)/combosim
	sh cuda/scripts/validation.sh $(BIN)/combosim
