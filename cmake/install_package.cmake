# `cmake --install`: the headers, the library, the `boids` program, the CMake package (boids::boids with a
# config and a version file) and boids.pc for pkg-config. Included by the top-level CMakeLists.txt.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BOIDS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/boids
    CACHE STRING "Where `cmake --install` puts boidsConfig.cmake, relative to the prefix")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/boids ${PROJECT_BINARY_DIR}/include/boids
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel)
install(TARGETS boids_core EXPORT boidsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
if(TARGET boids)
    install(TARGETS boids RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()

install(EXPORT boidsTargets NAMESPACE boids:: DESTINATION ${BOIDS_INSTALL_CMAKEDIR} COMPONENT devel)
get_target_property(boids_library_type boids_core TYPE)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/boidsConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/boidsConfig.cmake INSTALL_DESTINATION ${BOIDS_INSTALL_CMAKEDIR})
# 1.x releases keep the API: find_package(boids 1.0) accepts any 1.y >= 1.0.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/boidsConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/boidsConfig.cmake ${PROJECT_BINARY_DIR}/boidsConfigVersion.cmake
        DESTINATION ${BOIDS_INSTALL_CMAKEDIR} COMPONENT devel)

# boids.pc. A static libboids.a needs Highway and OpenMP on the link line of every user, so they are in
# Libs (a shared libboids.so records them itself, and they are harmless there).
# The prefix is found from the file's own place (${pcfiledir}), so `cmake --install --prefix P` anywhere works.
string(REPLACE ";" " " BOIDS_OPENMP_FLAGS "${OpenMP_CXX_FLAGS}")
file(RELATIVE_PATH BOIDS_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" BOIDS_PC_TO_PREFIX "${BOIDS_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/boids.pc.in ${PROJECT_BINARY_DIR}/boids.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/boids.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT devel)
