# Drives kbuild for vcap.ko: one build per kernel in /lib/modules/*/build,
# each over a copy of the module sources (kernel/, common/, include/) in the
# build tree, so the source tree never holds kbuild output.

set(VCAP_KERNEL_RELEASES "" CACHE STRING
	"Kernels to build vcap.ko for (default: every /lib/modules/*/build)")

function(vcap_find_kernels out)
	if(VCAP_KERNEL_RELEASES)
		set(${out} ${VCAP_KERNEL_RELEASES} PARENT_SCOPE)
		return()
	endif()
	file(GLOB dirs LIST_DIRECTORIES true /lib/modules/*)
	set(found "")
	foreach(d IN LISTS dirs)
		if(EXISTS "${d}/build/Makefile")
			get_filename_component(rel "${d}" NAME)
			list(APPEND found "${rel}")
		endif()
	endforeach()
	list(SORT found COMPARE NATURAL)
	set(${out} ${found} PARENT_SCOPE)
endfunction()
