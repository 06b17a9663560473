# VM tests: every test runs once per installed kernel, in QEMU, through
# tests/vm/vcap-vm.  The test name carries the kernel release.
#
# VCAP_KERNELS are the kernels of the whole matrix; VCAP_RT_KERNELS the
# PREEMPT_RT ones, which run only the tests that ask for them (RT or
# RT_ONLY below): under emulation the matrix cannot afford a third kernel
# for every test.

include(VcapKernel)
vcap_find_kernels(vcap_all_kernels)
vcap_split_kernels("${vcap_all_kernels}" VCAP_KERNELS VCAP_RT_KERNELS)
message(STATUS "VM kernels: ${VCAP_KERNELS}; PREEMPT_RT: ${VCAP_RT_KERNELS}")

set(VCAP_VM ${CMAKE_SOURCE_DIR}/tests/vm/vcap-vm)
set(VCAP_VM_OUT ${CMAKE_BINARY_DIR}/vm-out)

# A missing kernel is one test that fails and says so, never a silent skip.
function(vcap_vm_missing name suffix labels what)
	add_test(NAME vm-${name}-${suffix}
		COMMAND sh -c "echo '${what}: run scripts/install-deps.sh' >&2; exit 1")
	set_tests_properties(vm-${name}-${suffix} PROPERTIES LABELS "${labels}")
endfunction()

# ctest -j starts the costliest tests first.  A clean build has no
# measured costs (Testing/Temporary/CTestCostData.txt, which take
# precedence once a run has made them), so the longest tests carry their
# typical run time under emulation, in seconds: a long test left to the
# end runs alone while the other CPU idles.
set(VCAP_VM_TEST_COSTS
	rel-load-vcap 315  rel-fuzz-vcap 220  kernel-compliance 215
	eco-hdmi 160  rel-cycles-vcap 100  faults-hostile 100
	rel-fuzz-vcap-rt 76  rel-fuzz-writable 70  hard-vram-unbind-race 70
	eco-ffmpeg 70  eco-udev 65  kernel-unbind 60
	kernel-stream-1920x1080 55  kernel-stream-640x480 50
	vcap-stream-vcap 55  viewer-xvfb-vcap-soft 55)

# vcap_add_vm_test(NAME <name> TIMEOUT <s> LABELS <l>... [RT | RT_ONLY |
#                  NEWEST] [VM_ARGS <a>...] COMMAND <guest command>...)
# The test runs on every kernel of VCAP_KERNELS; with RT also on every
# VCAP_RT_KERNELS one, with RT_ONLY on those alone.  NEWEST runs it on
# the newest of VCAP_KERNELS alone: for the tools against vivid, whose
# code no kernel of the matrix changes.  In the guest, @KVER@
# in VM_ARGS or COMMAND becomes the kernel release and @KMOD@ the path of
# vcap.ko built for it.
function(vcap_add_vm_test)
	cmake_parse_arguments(T "RT;RT_ONLY;NEWEST" "NAME;TIMEOUT" "LABELS;VM_ARGS;COMMAND" ${ARGN})
	if(NOT T_TIMEOUT)
		set(T_TIMEOUT 300)
	endif()
	set(kernels "")
	if(NOT T_RT_ONLY)
		if(NOT VCAP_KERNELS)
			vcap_vm_missing(${T_NAME} nokernel "${T_LABELS}"
				"no kernel with headers in /lib/modules")
		endif()
		if(T_NEWEST AND VCAP_KERNELS)
			list(GET VCAP_KERNELS -1 newest)
			list(APPEND kernels ${newest})
		else()
			list(APPEND kernels ${VCAP_KERNELS})
		endif()
	endif()
	if(T_RT OR T_RT_ONLY)
		# The RT kernel is a dependency like the others, unless the
		# kernels were named by hand (VCAP_KERNEL_RELEASES).
		if(NOT VCAP_RT_KERNELS AND NOT VCAP_KERNEL_RELEASES)
			vcap_vm_missing(${T_NAME} nortkernel "${T_LABELS}"
				"no PREEMPT_RT kernel with headers in /lib/modules")
		endif()
		list(APPEND kernels ${VCAP_RT_KERNELS})
	endif()
	foreach(kver IN LISTS kernels)
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
		list(FIND VCAP_VM_TEST_COSTS ${T_NAME} i)
		if(i GREATER -1)
			math(EXPR i "${i} + 1")
			list(GET VCAP_VM_TEST_COSTS ${i} cost)
			set_tests_properties(vm-${T_NAME}-${kver} PROPERTIES
				COST ${cost})
		endif()
	endforeach()
endfunction()
