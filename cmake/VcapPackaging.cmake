# Debian packages, built by CPack from the install components:
#   vcap-dkms   vcap.ko's source in /usr/src/vcap-<version>, built by DKMS
#               for every installed kernel when the package is configured
#   vcap-tools  the tools, libvcap with its header and pkg-config file, the
#               udev rule, the firmware's systemd unit and the man pages
# Both share the synopsis, PROJECT_DESCRIPTION; the descriptions below are
# the long ones.  Every install component but "dkms" goes into vcap-tools, so the parts'
# own install() rules need no packaging knowledge.  Included last, once
# every part has declared its install rules.
#
#   cmake -B build-pkg -DCMAKE_INSTALL_PREFIX=/usr && cmake --build build-pkg
#   cd build-pkg && cpack -G DEB

set(VCAP_PKG_SRC ${CMAKE_SOURCE_DIR}/packaging)
set(VCAP_PKG_OUT ${CMAKE_BINARY_DIR}/packaging)

if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
	message(STATUS "packages install under ${CMAKE_INSTALL_PREFIX}; "
		"configure with -DCMAKE_INSTALL_PREFIX=/usr for Debian's layout")
endif()

# --- vcap-dkms: the module source as DKMS expects it ------------------------

set(VCAP_DKMS_DIR /usr/src/vcap-${PROJECT_VERSION})
if(EXISTS ${CMAKE_SOURCE_DIR}/kernel/dkms.conf)
	set(dkms_src ${VCAP_PKG_OUT}/dkms-src)
	set(dkms_stamp ${VCAP_PKG_OUT}/dkms-src.stamp)
	file(GLOB dkms_inputs CONFIGURE_DEPENDS
		${CMAKE_SOURCE_DIR}/kernel/*.c ${CMAKE_SOURCE_DIR}/kernel/*.h
		${CMAKE_SOURCE_DIR}/kernel/Kbuild ${CMAKE_SOURCE_DIR}/kernel/Makefile
		${CMAKE_SOURCE_DIR}/kernel/dkms.conf
		${CMAKE_SOURCE_DIR}/common/*.c ${CMAKE_SOURCE_DIR}/common/*.h
		${CMAKE_SOURCE_DIR}/include/vcap/*.h
		${CMAKE_SOURCE_DIR}/include/uapi/linux/*.h)
	add_custom_command(OUTPUT ${dkms_stamp}
		COMMAND sh ${VCAP_PKG_SRC}/dkms/stage-dkms.sh
			${CMAKE_SOURCE_DIR} ${dkms_src} ${PROJECT_VERSION}
		COMMAND ${CMAKE_COMMAND} -E touch ${dkms_stamp}
		DEPENDS ${dkms_inputs} ${VCAP_PKG_SRC}/dkms/stage-dkms.sh
			${CMAKE_SOURCE_DIR}/cmake/stage-kmod.sh
		COMMENT "Staging vcap.ko's DKMS source"
		VERBATIM)
	add_custom_target(vcap-dkms-source ALL DEPENDS ${dkms_stamp})
	install(DIRECTORY ${dkms_src}/ DESTINATION ${VCAP_DKMS_DIR}
		COMPONENT dkms)
	set(VCAP_HAVE_DKMS ON)
else()
	message(WARNING "kernel/dkms.conf not found: no vcap-dkms package")
	set(VCAP_HAVE_DKMS OFF)
endif()

foreach(script postinst prerm)
	configure_file(${VCAP_PKG_SRC}/debian/vcap-dkms/${script}.in
		${VCAP_PKG_OUT}/vcap-dkms/${script} @ONLY
		FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
			GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()

# --- vcap-tools: udev rule, systemd unit and man pages (the binaries install
# themselves) -----------------------------------------------------------------

install(FILES ${VCAP_PKG_SRC}/udev/60-vcap.rules
	DESTINATION /lib/udev/rules.d COMPONENT tools)

# The firmware as a service, one instance per virtual machine
# (vcap-fw@NAME), and the example of its /etc/vcap/NAME.conf.
set(VCAP_FW_PATH ${CMAKE_INSTALL_FULL_BINDIR}/vcap-fw)
configure_file(${VCAP_PKG_SRC}/systemd/vcap-fw@.service.in
	${VCAP_PKG_OUT}/systemd/vcap-fw@.service @ONLY)
install(FILES ${VCAP_PKG_OUT}/systemd/vcap-fw@.service
	DESTINATION /lib/systemd/system COMPONENT tools)
install(FILES ${VCAP_PKG_SRC}/systemd/vcap-fw.conf
	DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/vcap-tools/examples
	COMPONENT tools)

set(man_gz "")
foreach(page vcap-stream.1 vcap-view.1 vcap-fw.1 vcap.4)
	string(REGEX REPLACE ".*\\.([0-9])$" "\\1" section ${page})
	set(in ${CMAKE_SOURCE_DIR}/docs/man/${page})
	set(out ${VCAP_PKG_OUT}/man/${page}.gz)
	add_custom_command(OUTPUT ${out}
		COMMAND ${CMAKE_COMMAND} -E make_directory ${VCAP_PKG_OUT}/man
		COMMAND sh -c "gzip -9n <\"$0\" >\"$1\"" ${in} ${out}
		DEPENDS ${in}
		VERBATIM)
	install(FILES ${out} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section}
		COMPONENT tools)
	list(APPEND man_gz ${out})
endforeach()
add_custom_target(vcap-man ALL DEPENDS ${man_gz})

# --- CPack ------------------------------------------------------------------

get_cmake_property(vcap_components COMPONENTS)
list(APPEND vcap_components tools)
list(REMOVE_DUPLICATES vcap_components)
list(REMOVE_ITEM vcap_components dkms)
set(CPACK_COMPONENTS_ALL ${vcap_components})
if(VCAP_HAVE_DKMS)
	list(APPEND CPACK_COMPONENTS_ALL dkms)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vcap)
set(CPACK_PACKAGE_VENDOR "vcap")
set(CPACK_PACKAGE_CONTACT "vcap maintainers <vcap@example.org>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)

set(CPACK_DEBIAN_DKMS_PACKAGE_NAME vcap-dkms)
set(CPACK_DEBIAN_DKMS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_DKMS_PACKAGE_SECTION kernel)
set(CPACK_DEBIAN_DKMS_PACKAGE_DEPENDS "dkms (>= 2.8)")
set(CPACK_DEBIAN_DKMS_PACKAGE_RECOMMENDS "linux-headers-amd64 | linux-headers-generic")
set(CPACK_DEBIAN_DKMS_DESCRIPTION
	"The driver, as source that DKMS builds for every installed kernel:\n\
vcap.ko for PCI vcap boards and in-kernel software boards: a V4L2\n\
capture node (/dev/videoN) and a VRAM node (/dev/vcapN) per board.")
set(CPACK_DEBIAN_DKMS_PACKAGE_CONTROL_EXTRA
	${VCAP_PKG_OUT}/vcap-dkms/postinst ${VCAP_PKG_OUT}/vcap-dkms/prerm)

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME vcap-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION video)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
# The tools link libvcap from the same package: dpkg-shlibdeps (run in the
# staging directory) finds it there.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS .${CMAKE_INSTALL_FULL_LIBDIR})
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "vcap-dkms (= ${PROJECT_VERSION}-1)")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
	"The tools and library:\n\
vcap-stream (capture, verify, measure), vcap-view (live viewer),\n\
vcap-fw (the board firmware), libvcap with its header and pkg-config\n\
file, the udev rule for /dev/vcapN and the man pages.")
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_EXTRA
	${VCAP_PKG_SRC}/debian/vcap-tools/postinst
	${VCAP_PKG_SRC}/debian/vcap-tools/postrm
	${VCAP_PKG_SRC}/debian/vcap-tools/triggers)

include(CPackComponent)
cpack_add_component_group(tools)
foreach(c IN LISTS vcap_components)
	cpack_add_component(${c} GROUP tools)
endforeach()
if(VCAP_HAVE_DKMS)
	cpack_add_component_group(dkms)
	cpack_add_component(dkms GROUP dkms)
endif()
include(CPack)
