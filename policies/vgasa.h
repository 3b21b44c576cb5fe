/* vgasa — the pure parts of the vGASA-style policy (policies/vgasa.c): the PI controller on
 * the transformed plant and the reference computations of FSA (Algorithm 2) and ESA
 * (Algorithm 3), exposed so that tests can check them against the paper's equations without a
 * run.  Nothing here keeps state beyond the structs passed in.
 */
#ifndef COMBOSIM_VGASA_H
#define COMBOSIM_VGASA_H

#include <stdbool.h>

/* vGASA Eq. 7: the pole of the closed loop of Fig. 4, (kp + 1) / (kp + ki + 1). */
double vgasa_pole(double kp, double ki);

/* The PI controller of Eq. 3 on the transformed plant of Eq. 5 (G'p(z) = 1), realised with the
 * last frame's measured plant offset (a Smith predictor: see vgasa.c). */
struct vgasa_pi {
	double kp, ki;
	double integral;         /* sum of the transformed errors e = y_r - y */
};

/* One control step.  `ref_fps`: the reference r; `offset`: the last frame's measured offset of
 * the transformed plant, ln(period x F) (0 when nothing is measured yet).  Returns the control
 * input F (the FPS Eq. 1 turns into a sleep) and the step's error in *err, which
 * vgasa_pi_commit adds to the integral (left out while the sleep is clipped: anti-windup). */
double vgasa_pi_step(const struct vgasa_pi *c, double ref_fps, double offset, double *err);
void vgasa_pi_commit(struct vgasa_pi *c, double err);

/* FSA (Algorithm 2) over one sampling window: games below `criteria` FPS get GPU share
 * k_i x (criteria - fps_i), k_i = usage_i / fps_i; games above it give it up in equal parts,
 * their new reference (usage_j - share) / k_j, never below `criteria`.  ref[] in/out: 0 is "no
 * reference" (the game runs free); games below the criteria are set free.  Returns the GPU
 * share moved (a fraction of the GPU), 0 when no game was below or none above. */
double vgasa_fsa(int n, const double *fps, const double *usage, double criteria, double *ref);

/* ESA (Algorithm 3): the one FPS all games run at, 1 / sum(k_i), k_i = usage_i / fps_i; 0 when
 * no game has a measured k (no frame in the window). */
double vgasa_esa(int n, const double *fps, const double *usage);

#endif
