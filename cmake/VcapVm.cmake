# VM tests: each test runs on some kernels of the matrix, in QEMU, through
# tests/vm/vcap-vm.  The test name carries the kernel release.
#
# The matrix (docs/testing.md): VCAP_KERNELS are the standard kernels,
# oldest first; VCAP_RT_KERNELS the PREEMPT_RT ones; VCAP_DEBUG_KERNELS
# the debug kernel (lockdep, KASAN, kmemleak...).  Under emulation the
# matrix cannot afford every test on every kernel:
#   - the whole suite runs on the oldest and the newest standard kernel
#     (VCAP_END_KERNELS);
#   - the core, whatever a kernel change can break (build, load, stream,
#     v4l2-compliance, DV timings and EDID, the faults), runs on every
#     standard and PREEMPT_RT kernel;
#   - tests of the tools against vivid, whose code no kernel of the
#     matrix changes, run on the newest alone;
#   - the debug kernel runs the tests that drive the driver's locking,
#     memory and teardown hardest.

include(VcapKernel)
vcap_find_kernels(vcap_all_kernels)
vcap_split_kernels("${vcap_all_kernels}" VCAP_KERNELS VCAP_RT_KERNELS
	VCAP_DEBUG_KERNELS)
set(VCAP_END_KERNELS "")
if(VCAP_KERNELS)
	list(GET VCAP_KERNELS 0 vcap_oldest)
	list(GET VCAP_KERNELS -1 vcap_newest)
	list(APPEND VCAP_END_KERNELS ${vcap_oldest})
	if(NOT vcap_newest STREQUAL vcap_oldest)
		list(APPEND VCAP_END_KERNELS ${vcap_newest})
	endif()
endif()
message(STATUS "VM kernels: ${VCAP_KERNELS} (whole suite: ${VCAP_END_KERNELS}); "
	"PREEMPT_RT: ${VCAP_RT_KERNELS}; debug: ${VCAP_DEBUG_KERNELS}")

# vcap_kernels_for(<out> [CORE | RT_ONLY | NEWEST] [OLDEST] [DEBUG])
# The kernels a test runs on: the whole-suite kernels by default; CORE
# every standard and PREEMPT_RT kernel; RT_ONLY the PREEMPT_RT ones;
# NEWEST the newest standard one.  OLDEST adds the oldest standard one,
# DEBUG the debug kernel.
function(vcap_kernels_for out)
	cmake_parse_arguments(K "CORE;RT_ONLY;NEWEST;OLDEST;DEBUG" "" "" ${ARGN})
	if(K_CORE)
		set(kernels ${VCAP_KERNELS} ${VCAP_RT_KERNELS})
	elseif(K_RT_ONLY)
		set(kernels ${VCAP_RT_KERNELS})
	elseif(K_NEWEST)
		set(kernels ${vcap_newest})
	else()
		set(kernels ${VCAP_END_KERNELS})
	endif()
	if(K_OLDEST AND VCAP_KERNELS)
		list(APPEND kernels ${vcap_oldest})
	endif()
	if(K_DEBUG)
		list(APPEND kernels ${VCAP_DEBUG_KERNELS})
	endif()
	set(${out} ${kernels} PARENT_SCOPE)
endfunction()

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
	rel-load-vcap 135  rel-fuzz-vcap 220  kernel-compliance 215
	eco-hdmi 160  rel-cycles-vcap 100  faults-hostile 100
	rel-fuzz-vcap-200k 76  rel-fuzz-writable 70  hard-vram-unbind-race 70
	eco-ffmpeg 70  eco-udev 65  kernel-unbind 60
	kernel-stream-1920x1080 55  kernel-stream-640x480 50
	vcap-stream-vcap 55  viewer-xvfb-vcap-soft 55)

# vcap_vm_shorten(<out> <kver> <command> <old>><new>...)
# The command a test runs on kver: on every kernel but the two ends of the
# matrix (the kernels between them and the debug kernel), each pair
# replaces <old> with <new> in it, for the same test with fewer rounds.
function(vcap_vm_shorten out kver cmd)
	if(NOT kver IN_LIST VCAP_END_KERNELS)
		foreach(pair IN LISTS ARGN)
			string(REPLACE ">" ";" ab "${pair}")
			list(GET ab 0 from)
			list(GET ab 1 to)
			string(REPLACE "${from}" "${to}" cmd "${cmd}")
		endforeach()
	endif()
	set(${out} "${cmd}" PARENT_SCOPE)
endfunction()

# vcap_add_vm_test(NAME <name> TIMEOUT <s> LABELS <l>... [CORE | RT_ONLY |
#                  NEWEST] [OLDEST] [DEBUG] [VM_ARGS <a>...]
#                  [SHORT <old>><new>...] COMMAND <guest command>...)
# The test runs on the kernels vcap_kernels_for() gives for the same
# flags; on the debug kernel it also carries the label debugkernel.  In
# the guest, @KVER@ in VM_ARGS or COMMAND becomes the kernel release and
# @KMOD@ the path of vcap.ko built for it.  On every kernel but the two
# ends of the matrix (the kernels between them and the debug kernel),
# each SHORT pair replaces <old> with <new> in COMMAND: the same test,
# fewer rounds.
function(vcap_add_vm_test)
	cmake_parse_arguments(T "CORE;RT_ONLY;NEWEST;OLDEST;DEBUG" "NAME;TIMEOUT" "LABELS;VM_ARGS;SHORT;COMMAND" ${ARGN})
	if(NOT T_TIMEOUT)
		set(T_TIMEOUT 300)
	endif()
	# A missing kernel is a failure, never a silent skip: CI installs
	# them all (scripts/install-deps.sh), or the kernels were named by
	# hand (VCAP_KERNEL_RELEASES).
	if(NOT VCAP_KERNEL_RELEASES)
		if(NOT T_RT_ONLY AND NOT VCAP_KERNELS)
			vcap_vm_missing(${T_NAME} nokernel "${T_LABELS}"
				"no kernel with headers (scripts/kernels.sh list)")
		endif()
		if((T_CORE OR T_RT_ONLY) AND NOT VCAP_RT_KERNELS)
			vcap_vm_missing(${T_NAME} nortkernel "${T_LABELS}"
				"no PREEMPT_RT kernel with headers")
		endif()
		if(T_DEBUG AND NOT VCAP_DEBUG_KERNELS)
			vcap_vm_missing(${T_NAME} nodebugkernel "debugkernel"
				"no debug kernel (scripts/build-debug-kernel.sh)")
		endif()
	endif()
	set(flags "")
	foreach(f CORE RT_ONLY NEWEST OLDEST DEBUG)
		if(T_${f})
			list(APPEND flags ${f})
		endif()
	endforeach()
	vcap_kernels_for(kernels ${flags})
	foreach(kver IN LISTS kernels)
		set(kmod ${CMAKE_BINARY_DIR}/kernel/${kver}/vcap.ko)
		string(REPLACE "@KVER@" "${kver}" args "${T_VM_ARGS}")
		string(REPLACE "@KMOD@" "${kmod}" args "${args}")
		string(REPLACE "@KVER@" "${kver}" cmd "${T_COMMAND}")
		string(REPLACE "@KMOD@" "${kmod}" cmd "${cmd}")
		vcap_vm_shorten(cmd ${kver} "${cmd}" ${T_SHORT})
		set(labels "vm;${T_LABELS}")
		set(timeout ${T_TIMEOUT})
		if(kver IN_LIST VCAP_DEBUG_KERNELS)
			list(APPEND labels debugkernel)
			# KASAN and lockdep under emulation: about three times
			# slower.
			math(EXPR timeout "${T_TIMEOUT} * 3")
		endif()
		math(EXPR vm_timeout "${timeout} - 10")
		add_test(NAME vm-${T_NAME}-${kver}
			COMMAND ${VCAP_VM} --kernel ${kver}
				--timeout ${vm_timeout}
				--share ${CMAKE_BINARY_DIR}
				${args} -- ${cmd})
		set_tests_properties(vm-${T_NAME}-${kver} PROPERTIES
			LABELS "${labels}" TIMEOUT ${timeout}
			ENVIRONMENT "VCAP_VM_CACHE=${CMAKE_BINARY_DIR}/vm-cache")
		list(FIND VCAP_VM_TEST_COSTS ${T_NAME} i)
		set(cost 0)
		if(i GREATER -1)
			math(EXPR i "${i} + 1")
			list(GET VCAP_VM_TEST_COSTS ${i} cost)
		endif()
		# The debug kernel's runs are long whatever they run: they
		# start early rather than trail the others.
		if(kver IN_LIST VCAP_DEBUG_KERNELS)
			math(EXPR cost "(${cost} + 60) * 3")
		endif()
		if(cost GREATER 0)
			set_tests_properties(vm-${T_NAME}-${kver} PROPERTIES
				COST ${cost})
		endif()
	endforeach()
endfunction()
