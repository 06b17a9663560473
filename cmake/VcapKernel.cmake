# Drives kbuild for vcap.ko: one build per kernel in /lib/modules/*/build,
# each over a copy of the module sources (kernel/, common/, include/) in the
# build tree, so the source tree never holds kbuild output.

set(VCAP_KERNEL_RELEASES "" CACHE STRING
	"Kernels to build vcap.ko for (default: every /lib/modules/*/build)")

# Every kernel with headers, PREEMPT_RT ones included.
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

# A PREEMPT_RT kernel: Debian names its flavour -rt-amd64; any other is
# known by the configuration its headers were built with.
function(vcap_kernel_is_rt kver out)
	set(rt FALSE)
	if(kver MATCHES "-rt(-[a-z0-9_]+)?$")
		set(rt TRUE)
	elseif(EXISTS /lib/modules/${kver}/build/.config)
		file(STRINGS /lib/modules/${kver}/build/.config hit
			REGEX "^CONFIG_PREEMPT_RT=y$")
		if(hit)
			set(rt TRUE)
		endif()
	endif()
	set(${out} ${rt} PARENT_SCOPE)
endfunction()

# vcap_split_kernels(<releases> <out_std> <out_rt>)
function(vcap_split_kernels kernels out_std out_rt)
	set(std "")
	set(rt "")
	foreach(kver IN LISTS kernels)
		vcap_kernel_is_rt(${kver} is_rt)
		if(is_rt)
			list(APPEND rt ${kver})
		else()
			list(APPEND std ${kver})
		endif()
	endforeach()
	set(${out_std} ${std} PARENT_SCOPE)
	set(${out_rt} ${rt} PARENT_SCOPE)
endfunction()
