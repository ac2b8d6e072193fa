#include "prune/record_hash.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <memory>
#include <vector>

#include <libdeflate.h>

#include "util/diagnostic.hpp"

namespace tailor {

namespace {
std::string record_text(const unsigned char* md, unsigned int len) {
  unsigned char b64[48] = {};
  int n = EVP_EncodeBlock(b64, md, static_cast<int>(len));
  std::string s(reinterpret_cast<char*>(b64), static_cast<size_t>(n));
  while (!s.empty() && s.back() == '=') s.pop_back();
  std::replace(s.begin(), s.end(), '+', '-');
  std::replace(s.begin(), s.end(), '/', '_');
  return "sha256=" + s;
}
}  // namespace

std::string record_hash(ByteSlice data) {
  unsigned char md[32];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
  return record_text(md, len);
}

MemberDigest digest_of(const ByteReader& data) {
  struct Free {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
  };
  std::unique_ptr<EVP_MD_CTX, Free> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) throw_format_error("openssl: cannot hash");
  MemberDigest d;
  std::vector<uint8_t> buf;
  constexpr uint64_t kPiece = uint64_t{1} << 20;
  for (uint64_t at = 0; at < data.size(); at += kPiece) {
    ByteSlice piece = data.read(at, std::min(kPiece, data.size() - at), "member", buf);
    d.crc32 = libdeflate_crc32(d.crc32, piece.data(), piece.size());
    EVP_DigestUpdate(ctx.get(), piece.data(), piece.size());
  }
  unsigned char md[32];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &len);
  d.record_hash = record_text(md, len);
  return d;
}

}  // namespace tailor
