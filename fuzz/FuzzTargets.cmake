# tailor_fuzz_target(NAME SOURCE CORPUS_DIR [DICT file])
#   Always builds NAME_replay, which feeds every file of CORPUS_DIR to the
#   target's LLVMFuzzerTestOneInput, and registers it with ctest. With
#   -DTAILOR_FUZZ=ON (clang) it also builds the libFuzzer binary NAME.
if(TAILOR_FUZZ)
  add_custom_target(fuzzers)  # every libFuzzer binary, in build-asan/fuzzers/
endif()
function(tailor_fuzz_target name source corpus)
  cmake_parse_arguments(F "" "DICT" "" ${ARGN})
  add_executable(${name}_replay ${source} ${PROJECT_SOURCE_DIR}/fuzz/replay_main.cpp)
  target_link_libraries(${name}_replay PRIVATE tailor_cli)
  add_test(NAME fuzz_replay.${name} COMMAND ${name}_replay ${corpus})
  if(TAILOR_FUZZ)
    add_executable(${name} ${source})
    target_link_libraries(${name} PRIVATE tailor_cli)
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
