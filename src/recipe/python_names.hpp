#pragma once
/// Names of nixpkgs Python package sets and interpreters: python3Packages,
/// python313Packages, python3, python313. Checked by hand, not with std::regex:
/// every identifier of every file passes here (check and repin), and a regex
/// costs microseconds a call.

#include <string>
#include <string_view>

namespace tailor::recipe {

/// Whether \a name reads python3\d*(Packages)?.
bool is_python_set(std::string_view name);

/// The digits after "python3" of a Python name ("13" for python313Packages,
/// "" for python3Packages and python3); empty for any other name too.
std::string_view python_minor(std::string_view name);

/// "3.13" for python313Packages / python313; "" for python3Packages / python3
/// (the pin's default) and for other names.
std::string python_version(std::string_view name);

}  // namespace tailor::recipe
