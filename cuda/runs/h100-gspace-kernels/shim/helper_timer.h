/* Stands in for the CUDA samples' helper_timer.h, which Rodinia's cfd includes for the timer of
 * its main(); the driver never calls that main. */
#pragma once
typedef struct { int unused; } StopWatchInterface;
static inline void sdkCreateTimer(StopWatchInterface **) {}
static inline void sdkStartTimer(StopWatchInterface **) {}
static inline void sdkStopTimer(StopWatchInterface **) {}
static inline float sdkGetAverageTimerValue(StopWatchInterface **) { return 0; }
static inline void sdkDeleteTimer(StopWatchInterface **) {}
