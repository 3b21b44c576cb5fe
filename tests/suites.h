/* suites — one registration function per CUnit suite; tests/main.c calls them all. */
#ifndef COMBOSIM_TESTS_SUITES_H
#define COMBOSIM_TESTS_SUITES_H

void register_evq_tests(void);
void register_cfg_tests(void);
void register_engine_tests(void);
void register_policies_tests(void);
void register_validate_tests(void);
void register_traces_tests(void);
void register_backend_tests(void);
void register_hooks_tests(void);
void register_reshape_tests(void);
void register_vgasa_tests(void);
void register_smqos_tests(void);
void register_gspace_tests(void);
void register_hardening_tests(void);
void register_sweep_tests(void);
void register_power_tests(void);
void register_mig_tests(void);
void register_sharing_tests(void);
void register_gameload_tests(void);
void register_timing_tests(void);

#endif
