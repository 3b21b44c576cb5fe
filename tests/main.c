/* The CUnit test runner: every suite of tests/suites.h, or only the suites named on the command
 * line (`combosim-tests smqos vgasa`: a quick loop while working on one module; `make test`
 * runs them all).  Exit status 0 only when all that ran pass; an unknown suite name is an error. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include "tests/suites.h"

static int run_named(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		CU_pSuite suite = CU_get_suite(argv[i]);
		if (!suite) {
			fprintf(stderr, "combosim-tests: no suite '%s'; suites:", argv[i]);
			for (CU_pSuite s = CU_get_registry()->pSuite; s; s = s->pNext)
				fprintf(stderr, " %s", s->pName);
			fprintf(stderr, "\n");
			return 2;
		}
		CU_basic_run_suite(suite);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	register_evq_tests();
	register_cfg_tests();
	register_engine_tests();
	register_policies_tests();
	register_validate_tests();
	register_traces_tests();
	register_backend_tests();
	register_hooks_tests();
	register_reshape_tests();
	register_vgasa_tests();
	register_smqos_tests();
	register_gspace_tests();
	register_hardening_tests();
	register_sweep_tests();
	register_power_tests();
	register_mig_tests();
	register_sharing_tests();
	register_gameload_tests();
	register_timing_tests();
	CU_basic_set_mode(CU_BRM_NORMAL);
	if (argc > 1) {
		if (run_named(argc, argv)) {
			CU_cleanup_registry();
			return 2;
		}
	} else {
		CU_basic_run_tests();
	}
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed() +
			  CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
