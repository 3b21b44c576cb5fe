/* The CUnit test runner: every suite of tests/suites.h.  Exit status 0 only when all pass. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include "tests/suites.h"

int main(void)
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
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed() +
			  CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
