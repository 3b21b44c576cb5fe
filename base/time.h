/* time — simulated and measured time: integer nanoseconds since the start of a run. */
#ifndef COMBOSIM_TIME_H
#define COMBOSIM_TIME_H

#include <stdint.h>

typedef int64_t sim_time;
#define SIM_TIME_NEVER INT64_MAX

#endif
