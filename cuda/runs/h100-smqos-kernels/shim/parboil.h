/* Stand-in for Parboil's parboil.h: the timer calls the kernel files make, as no-ops (our own
 * code, not Parboil's). */
#ifndef SHIM_PARBOIL_H
#define SHIM_PARBOIL_H
enum pb_TimerID { pb_TimerID_NONE, pb_TimerID_IO, pb_TimerID_KERNEL, pb_TimerID_COPY,
		  pb_TimerID_DRIVER, pb_TimerID_COPY_ASYNC, pb_TimerID_COMPUTE };
struct pb_TimerSet { int unused; };
struct pb_Parameters { char *outFile; char **inpFiles; };
static inline void pb_SwitchToTimer(struct pb_TimerSet *t, enum pb_TimerID id) { (void)t; (void)id; }
#endif
