# VM tests: every test runs once per installed kernel, in QEMU, through
# tests/vm/vcap-vm.  The test name carries the kernel release.

include(VcapKernel)
vcap_find_kernels(VCAP_KERNELS)

set(VCAP_VM ${CMAKE_SOURCE_DIR}/tests/vm/vcap-vm)
set(VCAP_VM_OUT ${CMAKE_BINARY_DIR}/vm-out)

# vcap_add_vm_test(NAME <name> TIMEOUT <s> LABELS <l>... [VM_ARGS <a>...]
#                  COMMAND <guest command>...)
# In the guest, @KVER@ in VM_ARGS or COMMAND becomes the kernel release and
# @KMOD@ the path of vcap.ko built for it.
function(vcap_add_vm_test)
	cmake_parse_arguments(T "" "NAME;TIMEOUT" "LABELS;VM_ARGS;COMMAND" ${ARGN})
	if(NOT T_TIMEOUT)
		set(T_TIMEOUT 300)
	endif()
	if(NOT VCAP_KERNELS)
		# No kernel: one test that fails and says so, never a silent skip.
		add_test(NAME vm-${T_NAME}-nokernel
			COMMAND sh -c "echo 'no kernel with headers in /lib/modules: run scripts/install-deps.sh' >&2; exit 1")
		set_tests_properties(vm-${T_NAME}-nokernel PROPERTIES LABELS "${T_LABELS}")
		return()
	endif()
	foreach(kver IN LISTS VCAP_KERNELS)
		set(kmod ${CMAKE_BINARY_DIR}/kernel/${kver}/vcap.ko)
		string(REPLACE "@KVER@" "${kver}" args "${T_VM_ARGS}")
		string(REPLACE "@KMOD@" "${kmod}" args "${args}")
		string(REPLACE "@KVER@" "${kver}" cmd "${T_COMMAND}")
		string(REPLACE "@KMOD@" "${kmod}" cmd "${cmd}")
		math(EXPR vm_timeout "${T_TIMEOUT} - 10")
		add_test(NAME vm-${T_NAME}-${kver}
			COMMAND ${VCAP_VM} --kernel ${kver}
				--timeout ${vm_timeout}
				--share ${CMAKE_BINARY_DIR}
				${args} -- ${cmd})
		set_tests_properties(vm-${T_NAME}-${kver} PROPERTIES
			LABELS "vm;${T_LABELS}" TIMEOUT ${T_TIMEOUT}
			ENVIRONMENT "VCAP_VM_CACHE=${CMAKE_BINARY_DIR}/vm-cache")
	endforeach()
endfunction()
