# tailor_fuzz_target(NAME SOURCE CORPUS_DIR [DICT file])
#   Always builds NAME_replay, which feeds every file of CORPUS_DIR to the
#   target's LLVMFuzzerTestOneInput, and registers it with ctest. With
#   -DTAILOR_FUZZ=ON (clang) it also builds the libFuzzer binary NAME.
if(TAILOR_FUZZ)
  add_custom_target(fuzzers)  # every libFuzzer binary, in build-asan/fuzzers/
endif()
function(tailor_fuzz_target name source corpus)
  cmake_parse_arguments(F "" "DICT" "" ${ARGN})
  # Every target runs under the resource oracles (fuzz/resource_oracle.hpp): memory in both builds,
  # time in the libFuzzer one alone.
  add_executable(${name}_replay ${source} ${PROJECT_SOURCE_DIR}/fuzz/replay_main.cpp
                                ${PROJECT_SOURCE_DIR}/fuzz/resource_oracle.cpp)
  target_link_libraries(${name}_replay PRIVATE tailor_cli)
  add_test(NAME fuzz_replay.${name} COMMAND ${name}_replay ${corpus})
  if(TAILOR_FUZZ)
    add_executable(${name} ${source} ${PROJECT_SOURCE_DIR}/fuzz/resource_oracle.cpp)
    target_link_libraries(${name} PRIVATE tailor_cli)
    target_compile_definitions(${name} PRIVATE TAILOR_FUZZ_TIME_ORACLE)
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzzers)
    add_dependencies(fuzzers ${name})
  endif()
endfunction()

tailor_fuzz_target(spec_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/spec_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/spec)
tailor_fuzz_target(nix_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/nix_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/nix)
tailor_fuzz_target(binfmt_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/binfmt_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/binfmt)
tailor_fuzz_target(host_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/host_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/host)
tailor_fuzz_target(prune_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/prune_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/prune)
tailor_fuzz_target(import_overrides_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/import_overrides_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/import_overrides)
tailor_fuzz_target(kb_overlay_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/kb_overlay_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/kb_overlay)
tailor_fuzz_target(eval_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/eval_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/eval)
tailor_fuzz_target(shell_arrays_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/shell_arrays_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/shell_arrays)
tailor_fuzz_target(cpuinfo_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/cpuinfo_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/cpuinfo)
tailor_fuzz_target(catalog_commands_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/catalog_commands_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/catalog_commands)
tailor_fuzz_target(kb_new_package_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/kb_new_package_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/kb_new_package)
tailor_fuzz_target(check_tree_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/check_tree_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/check_tree)
tailor_fuzz_target(compact_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/compact_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/compact)
tailor_fuzz_target(layout_template_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/layout_template_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/layout_template)
tailor_fuzz_target(variant_json_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/variant_json_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/variant_json)
tailor_fuzz_target(axis_table_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/axis_table_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/axis_table)
tailor_fuzz_target(adopt_layout_fuzzer ${PROJECT_SOURCE_DIR}/fuzz/adopt_layout_fuzzer.cpp ${PROJECT_SOURCE_DIR}/tests/fuzz_corpus/adopt_layout)
