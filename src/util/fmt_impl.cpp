// The one translation unit that compiles fmt's out-of-line functions, from the
// implementation header libfmt-dev ships, as fmt's own src/format.cc does (the
// same explicit instantiations). The tailor binary then needs no libfmt.so,
// which would load the shared C++ runtime at every start (TAILOR_STATIC_RUNTIME
// in CMakeLists.txt). Other objects compile against fmt as a compiled library,
// as before. An fmt other than 9.x compiles nothing here, and the link falls
// back to its shared library.
#include <fmt/core.h>

#if FMT_VERSION >= 90000 && FMT_VERSION < 100000
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template FMT_API locale_ref::locale_ref(const std::locale& loc);
template FMT_API auto locale_ref::get<std::locale>() const -> std::locale;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API void buffer<char>::append(const char*, const char*);
}  // namespace detail
FMT_END_NAMESPACE
#endif
