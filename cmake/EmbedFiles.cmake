# Embeds the knowledge base (data/, with the Nix builders it carries in
# data/builders/ and the probes `tailor verify` runs in data/probes/), the example specs (examples/) and the catalog page's
# markup, style and script (src/catalog/page/) into the binary, so `tailor`
# works with nothing installed beside it.
file(GLOB_RECURSE TAILOR_EMBEDDED_INPUTS CONFIGURE_DEPENDS
  RELATIVE ${PROJECT_SOURCE_DIR}
  ${PROJECT_SOURCE_DIR}/data/*.toml
  ${PROJECT_SOURCE_DIR}/data/builders/*.nix
  ${PROJECT_SOURCE_DIR}/data/builder_eval/*.nix
  ${PROJECT_SOURCE_DIR}/data/probes/*.py
  ${PROJECT_SOURCE_DIR}/examples/*.toml
  ${PROJECT_SOURCE_DIR}/src/catalog/page/*)
# An example that needs its own knowledge-base overlay (examples/X/kb/) is no
# built-in spec: without the overlay it does not load.
file(GLOB _tailor_overlay_examples LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/examples/*/kb)
foreach(_kb IN LISTS _tailor_overlay_examples)
  get_filename_component(_example ${_kb} DIRECTORY)
  list(FILTER TAILOR_EMBEDDED_INPUTS EXCLUDE REGEX "^${_example}/")
endforeach()
list(SORT TAILOR_EMBEDDED_INPUTS)
set(TAILOR_EMBEDDED_CPP ${PROJECT_BINARY_DIR}/generated/embedded_files.cpp)
set(_embed_deps)
foreach(f IN LISTS TAILOR_EMBEDDED_INPUTS)
  list(APPEND _embed_deps ${PROJECT_SOURCE_DIR}/${f})
endforeach()
add_custom_command(
  OUTPUT ${TAILOR_EMBEDDED_CPP}
  COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} "-DFILES=${TAILOR_EMBEDDED_INPUTS}"
          -DOUT=${TAILOR_EMBEDDED_CPP} -P ${PROJECT_SOURCE_DIR}/cmake/embed_script.cmake
  DEPENDS ${_embed_deps} ${PROJECT_SOURCE_DIR}/cmake/embed_script.cmake
  COMMENT "Embedding knowledge base and example specs"
  VERBATIM)
