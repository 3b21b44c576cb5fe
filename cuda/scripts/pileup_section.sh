#!/bin/sh
# cuda/VALIDATION.md's pile-up section (called by validation.sh): the development run
# cuda/runs/h100-pileup-dev read and simulated by pileup_report.py.
# Usage: sh cuda/scripts/pileup_section.sh BIN/combosim
set -eu
C=${1:?usage: pileup_section.sh BIN/combosim}
cat <<'TXT'

## Development: a kernel launched behind a many-block one (cuda/runs/h100-pileup-dev)

**Development set** (structure, issue #19): `combosim-cuda bench pileup` records every block
of a long kernel L (1 or 2 blocks per SM alone) run alone and launched right behind a short
kernel S of thousands of small blocks (the pair benches' SL order), and S's blocks around L's
landing.  The pair test sets' worst makespans (u-CD3+MEMs and u-TC3+MEMs, SL) are this case:
one SM ran more of L's blocks than L alone puts there (pairs.csv's long_max_blocks_per_sm),
and L's time grew by that ratio.

TXT
python3 cuda/scripts/pileup_report.py "$C" cuda/runs/h100-pileup-dev
cat <<'TXT'

The same bench with three more pairs (S of TC and RT blocks, and a CD S of 64-thread blocks),
captured again (cuda/runs/h100-pileup-dev2, development; its RUN.md says which S calibrated
away from its target):

TXT
python3 cuda/scripts/pileup_report.py "$C" cuda/runs/h100-pileup-dev2
cat <<'TXT'

What the blocks show (the columns of both tables; no choice has been made from them yet):
- L's blocks all land while S drains, within the window in the "L lands over" column, as
  S's exits free room; L's duration behind S is its solo time times the most L blocks one SM
  ran over L's blocks per SM alone (the slowest SM sets it).
- Where S's blocks vary in duration (the MEM kernels' p10 / median / p90) its exits fall
  unevenly over the SMs in that window (variance / mean near 1, as if at random), and the SMs
  where many exit take many of L's blocks (the positive correlations): the most on one SM is
  well above L's blocks per SM alone.  Where S's blocks all last alike (the CD kernels) the
  exits are even (variance / mean near 0) and L's blocks spread as the simulator spreads them.
  TC and RT blocks vary too (uneven exits, strongly correlated with L's blocks); the same pair
  can pile differently from one repetition to the next.
- The simulator used to free the room of all SMs of a class at the same instants (its block
  spread acts inside an SM, the same on every SM of the class) and to place a waiting kernel's
  blocks level by level over the most room, so it never piled more than that lockstep room.
  The "sim" columns above are today's model: with the block drain (models/h100.json
  `block_drain`, sim/drain.c; next section) a MEM grid's last blocks are told apart per SM
  and drawn from the measured durations, and a kernel waiting behind it piles where room frees
  first; CD, TC and RT grids still drain in lockstep (why: the source of block_drain in
  models/h100.json).
TXT
