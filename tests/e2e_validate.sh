#!/bin/sh
# End-to-end checks of `combosim validate --real TRACE --gpu GPU`: a trace whose kernels ran
# alone replays exactly (durations, host-held launches, makespan); co-run kernels get their solo
# times from where their name ran alone, a solo capture, or their own duration, each counted;
# neighbours are named; the outputs are deterministic and feed the kernels.csv validator; bad
# input exits 2.  $COMBOSIM is the binary.
NAME=e2e-validate
. tests/e2e_lib.sh

H='Start (ns),Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name'
# Two streams that never overlap; stream 7 idles 800 us before kc (the host held it back).
printf '%s\n0,100000,528,1,1,256,1,1,32,0,0,7,ka\n100000,100000,528,1,1,256,1,1,32,0,0,7,kb\n500000,200000,264,1,1,256,1,1,32,0,0,8,kd\n1000000,100000,528,1,1,256,1,1,32,0,0,7,kc\n2000000,150000,264,1,1,256,1,1,32,0,0,8,ke\n' "$H" > "$T/serial.csv"
"$C" validate --real "$T/serial.csv" --gpu h100 --out "$T/s" >"$T/s.txt" 2>"$T/err" || bad "validate --real serial: $(cat "$T/err")"
check "kernels alone replay at their durations: error 0.0 %" "grep -q 'median 0.0 %, p90 0.0 %, max 0.0 %' '$T/s.txt'"
check "makespan 2.150 ms on both sides" "grep -q 'makespan: real 2.150 ms, sim 2.150 ms' '$T/s.txt'"
# kc's row: launch, start, end within a few ns (the H100's block spread ends an SM's blocks in
# turn, each end rounded up to the next ns)
kc_at() { awk -F, -v lo="$2" -v hi="$3" '$1 == "trace" && $2 == "kc" { ok = $8 == $9 && $9 >= lo && $9 <= hi && $10 - $9 >= 100000 && $10 - $9 <= 100005 } END { exit !ok }' "$1"; }
check "the host-held kc starts at 1 ms in the simulation" "kc_at '$T/s/sim/kernels.csv' 1000000 1000000"
check "report.txt opens with the summary error" "sed -n 2p '$T/s/report.txt' | grep -q '^kernel duration error'"
check "both figures drawn" "[ -s '$T/s/plots/durations.png' ] && [ -s '$T/s/plots/timeline.png' ]"
"$C" validate --real "$T/serial.csv" --gpu h100 --out "$T/s2" >/dev/null 2>&1
check "report.json byte-identical on a rerun" "cmp -s '$T/s/report.json' '$T/s2/report.json'"
check "kernels_real.csv feeds validate --sim --real" "'$C' validate --sim '$T/s/sim/kernels.csv' --real '$T/s/kernels_real.csv' >/dev/null"
"$C" validate --real "$T/serial.csv" --gpu h100 --gate-us 1000000 --out "$T/g" >"$T/g.txt" 2>&1
check "--gate-us 1e6: kc no longer held, follows kb at 200 us (only the stream's first kernel has at_us)" \
	"kc_at '$T/g/sim/kernels.csv' 200000 200005 && [ \$(grep -c at_us '$T/g/queues/stream_7.json') = 1 ]"

# kd (stream 8) overlaps ka and kb; kb ran alone later, kd never did.
printf '%s\n0,100000,528,1,1,256,1,1,32,0,0,7,ka\n50000,200000,264,1,1,256,1,1,32,0,0,8,kd\n100000,130000,528,1,1,256,1,1,32,0,0,7,kb\n300000,100000,528,1,1,256,1,1,32,0,0,7,kb\n400000,100000,528,1,1,256,1,1,32,0,0,7,ka\n' "$H" > "$T/corun.csv"
"$C" validate --real "$T/corun.csv" --gpu h100 --out "$T/c" >"$T/c.txt" 2>"$T/err" || bad "validate --real corun: $(cat "$T/err")"
check "solo times: 4 from alone instances on stream 7, kd from its own co-run duration" \
	"grep -q 'stream 7: 4 kernels.*0 solo capture, 4 alone in the trace, 0 own' '$T/c.txt' && grep -q 'stream 8: 1 kernels.*0 solo capture, 0 alone in the trace, 1 own' '$T/c.txt'"
check "kb's solo time is its alone instance's 100 us" "grep -q '\"name\": \"kb\".*\"solo_us\": 100.000' '$T/c/queues/stream_7.json'"
check "the worst kernel names what it ran beside" "grep -A1 'stream 7 #1 kb' '$T/c.txt' | grep -q 'beside (real): kd (stream 8)'"
check "overlap measured on both sides" "grep -q 'overlap (kernels of two or more streams running): real 0.180 ms' '$T/c.txt'"
printf '%s\n0,150000,264,1,1,256,1,1,32,0,0,3,kd\n' "$H" > "$T/solo.csv"
"$C" validate --real "$T/corun.csv" --gpu h100 --solo "$T/solo.csv" --out "$T/c2" >"$T/c2.txt" 2>&1
check "--solo: kd's solo time from the solo capture (150 us)" \
	"grep -q 'stream 8: 1 kernels.*1 solo capture' '$T/c2.txt' && grep -q '\"solo_us\": 150.000' '$T/c2/queues/stream_8.json'"

# ---- a real capture (trimmed: two processes under MPS on the H100, 240 kernels): the report's
# numbers are the stored ones (cuda/runs/h100-pytorch-validate; `make validate-real` rewrites
# both when the model changes on purpose)
"$C" validate --real tests/validate/mps-trim.json --solo tests/validate/solo-trim.json --gpu h100 --out "$T/trim" >"$T/trim.txt" 2>&1
if cmp -s "$T/trim/report.json" tests/validate/mps-trim.report.json; then
	ok "H100 capture (trimmed): report.json as stored ($(sed -n 2p "$T/trim.txt" | cut -c1-70))"
else
	bad "H100 capture (trimmed): report.json differs from tests/validate/mps-trim.report.json: $(diff "$T/trim/report.json" tests/validate/mps-trim.report.json | head -6)"
fi
check "H100 capture (trimmed): 240 kernels on 2 streams, every one simulated, solo times from the capture" \
	"grep -q '240 kernels on 2 streams, 240 simulated' '$T/trim.txt' && [ \$(grep -c '[0-9]* solo capture, 0 alone in the trace, 0 own' '$T/trim.txt') = 2 ]"

# ---- bad input
expect_error "--real without --gpu" 2 "--real TRACE needs --gpu GPU" -- validate --real "$T/serial.csv"
expect_error "unknown GPU" 2 "--gpu: expected a GPU description" -- validate --real "$T/serial.csv" --gpu nosuch --out "$T/x"
printf 'Duration (ns),GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Strm,Name\n100,1,1,1,32,1,1,32,0,0,7,k\n' > "$T/nostart.csv"
expect_error "trace without Start" 2 'expected a "Start" column' -- validate --real "$T/nostart.csv" --gpu h100 --out "$T/x"
expect_error "unknown kind" 2 "expected a trace kind nsys or pytorch, got 'ncu'" -- validate --real "$T/serial.csv" --gpu h100 --kind ncu --out "$T/x"
expect_error "bad window" 2 "--window-ms: expected FROM:TO" -- validate --real "$T/serial.csv" --gpu h100 --window-ms 5:1
expect_error "bad gate" 2 "--gate-us: expected a number" -- validate --real "$T/serial.csv" --gpu h100 --gate-us -1
printf '%s\n0,5,1,1,1,128,1,1,32,0,0,7,k\n2,-5,1,1,1,128,1,1,32,0,0,7,k\n' "$H" > "$T/badrow.csv"
expect_error "a bad trace row" 2 "badrow.csv:3: Duration: expected a number" -- validate --real "$T/badrow.csv" --gpu h100 --out "$T/x"

echo "e2e_validate: $((n - fails)) of $n passed"
[ $fails -eq 0 ]
