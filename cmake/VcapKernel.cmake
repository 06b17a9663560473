# Drives kbuild for vcap.ko: one build per kernel scripts/kernels.sh lists,
# each over a copy of the module sources (kernel/, common/, include/) in the
# build tree, so the source tree never holds kbuild output.

set(VCAP_KERNEL_RELEASES "" CACHE STRING
	"Kernels to build vcap.ko for (default: every kernel scripts/kernels.sh lists)")

# Every kernel vcap builds for, from scripts/kernels.sh: this system's own
# and those installed in the newer releases' chroots.  Sets <out> to the
# releases, oldest first, and in the caller's scope VCAP_KERNEL_KIND_<release>
# (std, rt or debug) and VCAP_KERNEL_ROOT_<release> (/ or the chroot that
# holds it).
function(vcap_find_kernels out)
	execute_process(COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/kernels.sh list
		OUTPUT_VARIABLE lines RESULT_VARIABLE rc)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "scripts/kernels.sh list failed")
	endif()
	string(REPLACE "\n" ";" lines "${lines}")
	set(found "")
	foreach(line IN LISTS lines)
		if(line MATCHES "^([^ ]+) ([^ ]+) ([a-z]+)$")
			set(rel ${CMAKE_MATCH_1})
			if(VCAP_KERNEL_RELEASES AND NOT rel IN_LIST VCAP_KERNEL_RELEASES)
				continue()
			endif()
			list(APPEND found ${rel})
			set(VCAP_KERNEL_KIND_${rel} ${CMAKE_MATCH_3} PARENT_SCOPE)
			set(VCAP_KERNEL_ROOT_${rel} ${CMAKE_MATCH_2} PARENT_SCOPE)
		endif()
	endforeach()
	set(${out} ${found} PARENT_SCOPE)
endfunction()

# vcap_split_kernels(<releases> <out_std> <out_rt> <out_debug>)
function(vcap_split_kernels kernels out_std out_rt out_debug)
	set(std "")
	set(rt "")
	set(debug "")
	foreach(kver IN LISTS kernels)
		set(kind ${VCAP_KERNEL_KIND_${kver}})
		if(kind STREQUAL "rt")
			list(APPEND rt ${kver})
		elseif(kind STREQUAL "debug")
			list(APPEND debug ${kver})
		else()
			list(APPEND std ${kver})
		endif()
	endforeach()
	set(${out_std} ${std} PARENT_SCOPE)
	set(${out_rt} ${rt} PARENT_SCOPE)
	set(${out_debug} ${debug} PARENT_SCOPE)
endfunction()
