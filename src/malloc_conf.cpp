// jemalloc's options, read once at the first allocation (linked only when the
// build found jemalloc: see TAILOR_JEMALLOC in CMakeLists.txt).
//
// thp:always asks for transparent huge pages for the heap even where the
// kernel gives them only on request (/sys/kernel/mm/transparent_hugepage/enabled
// set to madvise, Debian's default): `tailor check` holds every recipe of a tree
// with its syntax tree and facts at once, and on 4 KiB pages a third of its
// allocation time went to page faults. A user's MALLOC_CONF still overrides it.
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:always";
}
