#pragma once
/// The link that opens a catalog page on one machine's answer: the page's URL
/// with the fragment its script reads (`#gpu=…&driver=…&platform=…&product=…
/// &python=…&cpu=…`, URLSearchParams' encoding), the choices that describe
/// \a host as closely as the selector can.

#include <string>
#include <string_view>

#include "catalog/catalog_choices.hpp"
#include "recommend/recommend.hpp"

namespace tailor {

/// Why \a url cannot be a catalog page's address ("" when it can): an http,
/// https or file URL, no control character (a newline would add a line to
/// what prints it, "javascript:" runs code where the link is opened).
std::string link_url_problem(std::string_view url);

/// The GPUs as the page numbers them: every platform's, in platform order, each once.
std::vector<const GpuArch*> page_gpus(const CatalogChoices& choices);

/// \a url (any fragment dropped) with the fragment that selects \a host and
/// \a req's package, version and Python of the catalog's spec \a spec. Throws
/// DiagnosticError where the catalog has no such platform or package.
std::string catalog_link(const std::string& url, const CatalogChoices& choices, const HostFacts& host,
                         const RecommendRequest& req, const KnowledgeBase& kb, size_t spec = 0);

}  // namespace tailor
