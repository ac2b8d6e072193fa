#include "catalog/packed_data.hpp"

#include <stdexcept>

#include <zlib.h>

namespace tailor {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4 + bytes.size() / 57 + 1);
  size_t line = 0;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[n & 63] : '=';
    if ((line += 4) == 76 && i + 3 < bytes.size()) {
      out += '\n';
      line = 0;
    }
  }
  return out;
}

std::string unbase64(std::string_view text) {
  std::string out;
  uint32_t n = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '\n' || c == '=') continue;
    auto at = kAlphabet.find(c);
    if (at == std::string_view::npos) throw std::runtime_error("not base64");
    n = (n << 6) | static_cast<uint32_t>(at);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((n >> bits) & 0xff);
    }
  }
  return out;
}

}  // namespace

std::string pack_for_page(std::string_view text) {
  uLongf size = compressBound(static_cast<uLong>(text.size()));
  std::string z(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(z.data()), &size, reinterpret_cast<const Bytef*>(text.data()),
                static_cast<uLong>(text.size()), 9) != Z_OK)
    throw std::runtime_error("zlib could not compress the catalog's data");
  z.resize(size);
  return base64(z);
}

std::string unpack_from_page(std::string_view packed) {
  std::string z = unbase64(packed);
  z_stream s{};
  if (inflateInit(&s) != Z_OK) throw std::runtime_error("zlib: inflateInit failed");
  s.next_in = reinterpret_cast<Bytef*>(z.data());
  s.avail_in = static_cast<uInt>(z.size());
  std::string out;
  char buf[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    s.next_out = reinterpret_cast<Bytef*>(buf);
    s.avail_out = sizeof buf;
    rc = inflate(&s, Z_NO_FLUSH);
    out.append(buf, sizeof buf - s.avail_out);
  }
  inflateEnd(&s);
  if (rc != Z_STREAM_END) throw std::runtime_error("not zlib data");
  return out;
}

}  // namespace tailor
