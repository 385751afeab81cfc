# Writes the header that includes every model's file, from the registry's list BOIDS_MODELS in
# include/boids/model.hpp: model `T` lives in src/models/<t>.hpp (its name in lower case). Included by
# src/CMakeLists.txt with MODEL_HEADER and OUTPUT set; CMake configures again when the list changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${MODEL_HEADER})
file(READ ${MODEL_HEADER} model_header_text)
string(REGEX MATCHALL "\n *X\\([A-Za-z0-9_]+\\)" model_lines "${model_header_text}")
set(model_files_text "// Generated from BOIDS_MODELS in include/boids/model.hpp by cmake/model_files.cmake.\n#pragma once\n")
foreach(line IN LISTS model_lines)
    string(REGEX REPLACE "^\n *X\\(([A-Za-z0-9_]+)\\)$" "\\1" model_type "${line}")
    string(TOLOWER "${model_type}" model_file)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/src/models/${model_file}.hpp)
        message(FATAL_ERROR "BOIDS_MODELS lists ${model_type}, but src/models/${model_file}.hpp does not exist")
    endif()
    string(APPEND model_files_text "#include \"models/${model_file}.hpp\"\n")
endforeach()
file(CONFIGURE OUTPUT ${OUTPUT} CONTENT "${model_files_text}")
