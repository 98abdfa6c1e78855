// Property: whatever pglz compresses under any strategy decompresses to the original bytes, in
// exact mode and as any slice, from no more than MaximumCompressedSize input bytes, and the
// compressed form is smaller than the input.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/pglz_fuzz_params.h"
#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"

namespace {

// 256 KiB covers every hash-table size and many history wrap-arounds (4096 positions).
constexpr size_t kMaxInput = 256 << 10;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgstore;
  if (size > kMaxInput) return 0;
  fuzz::TailSplitter t(data, size);
  const pglz::Strategy strategy = fuzz::TakeStrategy(&t);
  const uint32_t slice_pick = t.TakeU32();
  ByteView raw = t.Payload();
  auto src = fuzz::ExactCopy(raw);

  std::vector<uint8_t> compressed(pglz::MaxOutput(raw.size));
  std::optional<int32_t> n =
      pglz::Compress(ByteView(src.get(), raw.size), compressed.data(), strategy);
  if (!n) return 0;
  FUZZ_ASSERT(*n >= 0 && static_cast<size_t>(*n) < raw.size);
  auto c = fuzz::ExactCopy(ByteView(compressed.data(), *n));

  std::vector<uint8_t> out(raw.size);
  StatusOr<size_t> m =
      pglz::Decompress(ByteView(c.get(), *n), out.data(), raw.size, pglz::Completeness::kExact);
  FUZZ_ASSERT(m.ok());
  FUZZ_ASSERT(*m == raw.size);
  FUZZ_ASSERT(std::equal(out.begin(), out.end(), raw.data));

  // A slice needs only MaximumCompressedSize(k) bytes of the stream and is the raw prefix.
  const size_t k = slice_pick % (raw.size + 1);
  const int32_t need = pglz::MaximumCompressedSize(static_cast<int32_t>(k), *n);
  auto head = fuzz::ExactCopy(ByteView(c.get(), need));
  std::vector<uint8_t> prefix(k);
  StatusOr<size_t> s =
      pglz::Decompress(ByteView(head.get(), need), prefix.data(), k, pglz::Completeness::kPartial);
  FUZZ_ASSERT(s.ok());
  FUZZ_ASSERT(*s == k);
  FUZZ_ASSERT(std::equal(prefix.begin(), prefix.end(), raw.data));
  return 0;
}
