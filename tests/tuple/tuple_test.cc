#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/tuple/deform.h"
#include "storage/tuple/form.h"
#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/tuple/tuple_header.h"
#include "storage/tuple/varlena.h"

namespace pgstore::tuple {
namespace {

using Owned = std::vector<std::optional<std::vector<uint8_t>>>;

TupleDesc Desc(const std::string& schema) {
  StatusOr<TupleDesc> d = TupleDesc::FromSchema(schema);
  EXPECT_TRUE(d.ok()) << d.status().ToString();
  return *d;
}

std::vector<uint8_t> Int4(int32_t v) {
  std::vector<uint8_t> b(4);
  StoreLE32(b.data(), static_cast<uint32_t>(v));
  return b;
}

std::vector<uint8_t> Text(const std::string& s) { return MakeVarlena(ByteView::FromString(s)); }

std::vector<uint8_t> Form(const TupleDesc& d, const Owned& v,
                          TrailingNulls mode = TrailingNulls::kOff) {
  FormOptions o;
  o.trailing_nulls = mode;
  StatusOr<std::vector<uint8_t>> t = FormHeapTuple(d, DatumsOf(v), o);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? *t : std::vector<uint8_t>{};
}

Status DeformStatus(const std::vector<uint8_t>& t, const TupleDesc& d) {
  return DeformHeapTuple(ByteView(t), d).status();
}

TEST(TupleFormat, ConstantsMatchPostgres) {
  EXPECT_EQ(kHeaderSize, 23u);
  EXPECT_EQ(kMaxHeapTupleSize, 8160u);
  EXPECT_EQ(kMaxTupleAttributeNumber, 1664);
  EXPECT_EQ(HeaderLength(kMaxTupleAttributeNumber, true), 232u);
  EXPECT_EQ(HeaderLength(0, false), 24u);
  EXPECT_EQ(kToastPointerSize, 18u);
}

TEST(TupleDescTest, BuiltInTypes) {
  TupleDesc d = Desc("int2,int8,name,uuid,text,numeric,float8[],int4[],cstring");
  EXPECT_EQ(d.attr(0).attalign, 's');
  EXPECT_EQ(d.attr(1).attalign, 'd');
  EXPECT_EQ(d.attr(2).attlen, 64);
  EXPECT_FALSE(d.attr(3).attbyval);
  EXPECT_TRUE(d.attr(4).packable());
  EXPECT_EQ(d.attr(5).attstorage, 'm');
  EXPECT_EQ(d.attr(6).attalign, 'd');
  EXPECT_EQ(d.attr(7).attalign, 'i');
  EXPECT_TRUE(d.attr(8).is_cstring());
  EXPECT_FALSE(TupleDesc::FromSchema("int4,nosuchtype").ok());
  EXPECT_FALSE(TupleDesc::FromSchema("int4,,int4").ok());
}

TEST(TupleDescTest, DroppedAndMissing) {
  TupleDesc d = Desc("int4,dropped:int8,int4=42,text=hi,date=2000-01-03");
  EXPECT_TRUE(d.attr(1).attisdropped);
  EXPECT_EQ(*d.attr(2).missing_value, Int4(42));
  EXPECT_EQ(*d.attr(3).missing_value, Text("hi"));
  EXPECT_EQ(*d.attr(4).missing_value, Int4(2));
  EXPECT_EQ(d.LastMissingAttribute(), 4);
  EXPECT_EQ(Desc("int4,text").LastMissingAttribute(), -1);  // none
  EXPECT_FALSE(TupleDesc::FromSchema("int4=x").ok());
}

// Worked by hand from docs/formats.md §1.1-1.3: int4 1, text 'ab' (packed to a 1-byte header),
// NULL.
TEST(FormTest, GoldenBytes) {
  TupleDesc d = Desc("int4,text,int8");
  std::vector<uint8_t> t = Form(d, {Int4(1), Text("ab"), std::nullopt});
  const std::vector<uint8_t> want = {0,    0,    0,    0,    0,    0,
                                     0,    0,    0,    0,    0,    0,     // xmin xmax cid
                                     0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00,  // ctid invalid
                                     0x03, 0x00, 0x03, 0x00, 24,  // natts 3, HASNULL|VARWIDTH
                                     0x03,                        // bitmap 011
                                     1,    0,    0,    0,         // int4 at 24
                                     0x07, 'a',  'b'};            // 1B header (3 << 1) | 1
  EXPECT_EQ(t, want);
}

TEST(FormTest, AlignsAndZeroPads) {
  TupleDesc d = Desc("bool,int8,int2,int4");
  std::vector<uint8_t> b = {1}, i8(8, 0xAB), i2 = {2, 0};
  std::vector<uint8_t> t = Form(d, {b, i8, i2, Int4(7)});
  ASSERT_EQ(t.size(), 24u + 8 + 8 + 2 + 2 + 4);
  for (int i = 25; i < 32; ++i) EXPECT_EQ(t[i], 0) << i;
  EXPECT_EQ(t[32], 0xAB);
  EXPECT_EQ(t[42], 0);  // int4 aligned to 44
  EXPECT_EQ(t[44], 7);
}

TEST(FormTest, LongVarlenaKeepsFourByteHeaderAligned) {
  TupleDesc d = Desc("bool,text");
  std::string s(127, 'x');
  std::vector<uint8_t> t = Form(d, {std::vector<uint8_t>{1}, Text(s)});
  ASSERT_EQ(t.size(), 24u + 1 + 3 + 4 + 127);
  EXPECT_EQ(LoadLE32(&t[28]) >> 2, 131u);
  std::vector<uint8_t> t126 = Form(d, {std::vector<uint8_t>{1}, Text(std::string(126, 'x'))});
  EXPECT_EQ(t126.size(), 24u + 1 + 1 + 126);  // packed: no padding
}

TEST(FormTest, PlainStorageIsNeverPacked) {
  Attribute a = *AttributeForType("text");
  a.attstorage = 'p';
  TupleDesc d({a});
  std::vector<uint8_t> t = Form(d, {Text("ab")});
  EXPECT_EQ(t.size(), 24u + 6);
}

TEST(FormTest, ExternalPointerSetsFlag) {
  TupleDesc d = Desc("text");
  std::vector<uint8_t> ext = MakeToastPointer(5000, 1200, 0, 16400, 16385);
  ASSERT_EQ(ext.size(), kToastPointerSize);
  std::vector<uint8_t> t = Form(d, {ext});
  EXPECT_EQ(LoadLE16(&t[kOffInfomask]) & kHasExternal, kHasExternal);
  ext[1] = 2;  // VARTAG_EXPANDED_RO: never on disk
  EXPECT_TRUE(FormHeapTuple(d, DatumsOf({ext})).status().IsInvalidArgument());
}

TEST(FormTest, RejectsValuesThatDoNotMatch) {
  TupleDesc d = Desc("int4,text,cstring");
  EXPECT_TRUE(FormHeapTuple(d, DatumsOf({Int4(1)})).status().IsInvalidArgument());
  std::vector<uint8_t> short3 = {1, 2, 3};
  EXPECT_EQ(FormHeapTuple(d, DatumsOf({short3, Text("a"), std::nullopt})).status().message(),
            "attribute 1: expected 4 bytes, got 3");
  std::vector<uint8_t> bad = Text("abc");
  bad.pop_back();
  EXPECT_TRUE(
      FormHeapTuple(d, DatumsOf({Int4(1), bad, std::nullopt})).status().IsInvalidArgument());
  std::vector<uint8_t> nul = {'a', 0, 'b'};
  EXPECT_TRUE(FormHeapTuple(d, DatumsOf({Int4(1), Text("a"), nul})).status().IsInvalidArgument());
}

TEST(FormTest, RejectsAttlenZero) {
  Attribute a;
  a.attlen = 0;
  TupleDesc d({a});
  EXPECT_EQ(FormHeapTuple(d, DatumsOf({std::vector<uint8_t>{}})).status().message(),
            "attribute 1: bad attlen 0");
}

TEST(FormTest, RejectsALoneNulAsCstring) {
  TupleDesc d = Desc("cstring");
  EXPECT_TRUE(FormHeapTuple(d, DatumsOf({std::vector<uint8_t>{0}})).status().IsInvalidArgument());
  EXPECT_TRUE(FormHeapTuple(d, DatumsOf({std::vector<uint8_t>{}})).ok());
}

TEST(FormTest, WritesEveryHeaderField) {
  TupleDesc d = Desc("int4");
  FormOptions o;
  o.header = {100, 200, 3, 7, 9, kXmaxInvalid, 0};
  StatusOr<std::vector<uint8_t>> t = FormHeapTuple(d, DatumsOf({Int4(1)}), o);
  ASSERT_TRUE(t.ok());
  StatusOr<TupleHeader> h = ParseTupleHeader(ByteView(*t));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->xmin, 100u);
  EXPECT_EQ(h->xmax, 200u);
  EXPECT_EQ(h->cid, 3u);
  EXPECT_EQ(h->ctid_block, 7u);
  EXPECT_EQ(h->ctid_offset, 9u);
  EXPECT_EQ(h->infomask & kXmaxInvalid, kXmaxInvalid);
}

// t_ctid's block is a BlockIdData: bi_hi, then bi_lo, each a little-endian uint16.
TEST(TupleHeaderTest, CtidBlockIsItsHighHalfThenItsLowHalf) {
  TupleHeader h;
  h.ctid_block = 0x12345678;
  h.ctid_offset = 0x9ABC;
  std::vector<uint8_t> bytes(kHeaderSize);
  EncodeTupleHeader(h, bytes.data());
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + kOffCtid, bytes.begin() + kOffCtid + 6),
            (std::vector<uint8_t>{0x34, 0x12, 0x78, 0x56, 0xBC, 0x9A}));
  const TupleHeader back = ReadRawTupleHeader(ByteView(bytes));
  EXPECT_EQ(back.ctid_block, 0x12345678u);
  EXPECT_EQ(back.ctid_offset, 0x9ABCu);
}

// A default TupleHeader is all zero: encoded, its 23 bytes are zero; natts, not encoded, is 0 and
// the bitmap empty.
TEST(TupleHeaderTest, DefaultIsAllZero) {
  std::vector<uint8_t> bytes(kHeaderSize, 0xFF);
  EncodeTupleHeader(TupleHeader{}, bytes.data());
  EXPECT_EQ(bytes, std::vector<uint8_t>(kHeaderSize, 0));
  const TupleHeader h{};
  EXPECT_EQ(h.natts, 0);
  EXPECT_EQ(h.bitmap.size, 0u);
}

// FormHeapTupleInto reuses the caller's buffer: what it held before must not leak into the tuple.
TEST(FormTest, ReusedBufferGivesTheSameBytes) {
  TupleDesc d = Desc("int4,int4,text");
  const Owned v = {std::nullopt, Int4(5), Text("xy")};
  std::vector<uint8_t> out(64, 0xFF);
  ASSERT_TRUE(FormHeapTupleInto(d, DatumsOf(v), FormOptions{}, &out).ok());
  EXPECT_EQ(out, Form(d, v));
}

TEST(FormTest, AttributeCountLimitIs1664) {
  std::vector<Attribute> attrs(kMaxTupleAttributeNumber, *AttributeForType("int4"));
  std::vector<Datum> nulls(attrs.size());
  EXPECT_TRUE(FormHeapTuple(TupleDesc(attrs), nulls).ok());
  attrs.push_back(attrs.back());
  nulls.push_back(std::nullopt);
  EXPECT_EQ(FormHeapTuple(TupleDesc(attrs), nulls).status().message(), "too many attributes");
}

TEST(TruncationTest, ModesDecideNattsAndBitmap) {
  TupleDesc d = Desc("int4,int4,int4,int4,int4,int4,int4,int4,int4,int4");
  Owned v(10);
  v[0] = Int4(1);
  v[1] = Int4(2);
  std::vector<uint8_t> off = Form(d, v, TrailingNulls::kOff);
  std::vector<uint8_t> keep = Form(d, v, TrailingNulls::kKeepBitmap);
  std::vector<uint8_t> drop = Form(d, v, TrailingNulls::kDropBitmap);
  EXPECT_EQ(LoadLE16(&off[kOffInfomask2]) & kNattsMask, 10);
  EXPECT_EQ(off[kOffHoff], 32);  // 23 + 2 bitmap bytes
  EXPECT_EQ(LoadLE16(&keep[kOffInfomask2]) & kNattsMask, 2);
  EXPECT_EQ(keep[kOffHoff], 24);
  EXPECT_TRUE(LoadLE16(&keep[kOffInfomask]) & kHasNull);
  EXPECT_FALSE(LoadLE16(&drop[kOffInfomask]) & kHasNull);
  EXPECT_EQ(drop.size(), 32u);
  for (const auto& t : {off, keep, drop}) {
    StatusOr<Owned> c = CanonicalValues(ByteView(t), d);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    EXPECT_EQ(*c, v);
  }
}

TEST(TruncationTest, NeverTruncatesAtOrBeforeAMissingDefault) {
  TupleDesc d = Desc("int4,int4=5,int4");
  Owned v = {Int4(1), std::nullopt, std::nullopt};
  std::vector<uint8_t> t = Form(d, v, TrailingNulls::kDropBitmap);
  EXPECT_EQ(LoadLE16(&t[kOffInfomask2]) & kNattsMask, 2);
  StatusOr<Owned> c = CanonicalValues(ByteView(t), d);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, v);  // the NULL stays NULL, not 5
}

TEST(DeformTest, MissingAttributesReadAsNullOrDefault) {
  TupleDesc narrow = Desc("int4");
  std::vector<uint8_t> t = Form(narrow, {Int4(9)});
  TupleDesc wide = Desc("int4,int4,text=hello");
  StatusOr<Owned> c = CanonicalValues(ByteView(t), wide);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, (Owned{Int4(9), std::nullopt, Text("hello")}));
  StatusOr<Datum> a = GetAttribute(ByteView(t), wide, 2);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*a)->ToVector(), Text("hello"));
}

TEST(DeformTest, GetAttributeMatchesDeform) {
  TupleDesc d = Desc("int2,text,int8,bool,text");
  Owned v = {std::vector<uint8_t>{1, 0}, Text("abc"), std::nullopt, std::vector<uint8_t>{1},
             Text(std::string(300, 'z'))};
  std::vector<uint8_t> t = Form(d, v);
  StatusOr<std::vector<Datum>> all = DeformHeapTuple(ByteView(t), d);
  ASSERT_TRUE(all.ok());
  for (int i = 0; i < d.natts(); ++i) {
    StatusOr<Datum> one = GetAttribute(ByteView(t), d, i);
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(one->has_value(), (*all)[i].has_value());
    if (one->has_value()) {
      EXPECT_EQ((*one)->ToVector(), (*all)[i]->ToVector());
    }
  }
  EXPECT_TRUE(GetAttribute(ByteView(t), d, 5).status().IsInvalidArgument());
}

// Like heap_getattr, single-attribute access reads no further than the attribute asked for.
TEST(DeformTest, GetAttributeDoesNotReadPastIt) {
  TupleDesc d = Desc("int4,text");
  std::vector<uint8_t> t = Form(d, {Int4(6), Text("ab")});
  t[28] = 0x7F;  // the text's 1-byte header now claims 63 bytes
  EXPECT_FALSE(DeformStatus(t, d).ok());
  StatusOr<Datum> first = GetAttribute(ByteView(t), d, 0);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ((*first)->ToVector(), Int4(6));
}

// As in PostgreSQL's getmissingattr, a missing value counts only when atthasmissing is set.
TEST(DeformTest, MissingValueNeedsAtthasmissing) {
  std::vector<uint8_t> t = Form(Desc("int4"), {Int4(9)});
  Attribute stale = *AttributeForType("int4");
  stale.missing_value = Int4(5);
  TupleDesc wide({*AttributeForType("int4"), stale});
  StatusOr<std::vector<Datum>> v = DeformHeapTuple(ByteView(t), wide);
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE((*v)[1].has_value());
}

TEST(DeformTest, RejectsAttlenZero) {
  std::vector<uint8_t> t = Form(Desc("int4"), {Int4(1)});
  t.resize(24);  // natts 1, no data
  Attribute a;
  a.attlen = 0;
  EXPECT_EQ(DeformStatus(t, TupleDesc({a})).message(), "bad attlen 0");
}

TEST(DeformTest, TooShortIsCorruption) {
  std::vector<uint8_t> t(22, 0);
  EXPECT_EQ(DeformStatus(t, Desc("int4")).message(), "tuple shorter than header");
  // 23 bytes hold the whole fixed header; what is missing is the rest of t_hoff's 24.
  std::vector<uint8_t> header_only = Form(Desc("int4"), {Int4(1)});
  header_only.resize(kHeaderSize);
  EXPECT_EQ(DeformStatus(header_only, Desc("int4")).message(), "t_hoff beyond end of tuple");
}

TEST(DeformTest, HoffMismatchIsCorruption) {
  TupleDesc d = Desc("int4,int4");
  std::vector<uint8_t> t = Form(d, {Int4(1), std::nullopt});
  t[kOffHoff] = 32;
  EXPECT_EQ(DeformStatus(t, d).message(), "t_hoff mismatch");
}

TEST(DeformTest, NattsBeyondDescriptorIsCorruption) {
  std::vector<uint8_t> t = Form(Desc("int4,int4"), {Int4(1), Int4(2)});
  EXPECT_EQ(DeformStatus(t, Desc("int4")).message(), "natts exceeds descriptor");
}

TEST(DeformTest, AttributePastEndIsCorruption) {
  TupleDesc d = Desc("int4,int8");
  std::vector<uint8_t> t = Form(d, {Int4(1), std::vector<uint8_t>(8, 1)});
  t.pop_back();
  EXPECT_EQ(DeformStatus(t, d).message(), "attribute extends past end of tuple");
}

TEST(DeformTest, NonzeroPaddingIsCorruption) {
  TupleDesc d = Desc("bool,int4");
  std::vector<uint8_t> t = Form(d, {std::vector<uint8_t>{1}, Int4(3)});
  t[25] = 7;
  EXPECT_EQ(DeformStatus(t, d).message(), "nonzero padding");
}

TEST(DeformTest, TrailingBytesAreCorruption) {
  TupleDesc d = Desc("int4");
  std::vector<uint8_t> t = Form(d, {Int4(1)});
  t.push_back(0);
  EXPECT_EQ(DeformStatus(t, d).message(), "trailing bytes after last attribute");
}

TEST(DeformTest, VarlenaChecks) {
  TupleDesc d = Desc("text");
  std::vector<uint8_t> t = Form(d, {Text(std::string(200, 'q'))});
  std::vector<uint8_t> big = t;
  StoreLE32(&big[24], 1000 << 2);
  EXPECT_EQ(DeformStatus(big, d).message(), "varlena extends past end of tuple");
  std::vector<uint8_t> tiny = t;
  StoreLE32(&tiny[24], 2 << 2);
  EXPECT_EQ(DeformStatus(tiny, d).message(), "bad varlena size");
  std::vector<uint8_t> noflag = t;
  StoreLE16(&noflag[kOffInfomask], 0);
  EXPECT_EQ(DeformStatus(noflag, d).message(), "variable-width value without HEAP_HASVARWIDTH");

  std::vector<uint8_t> e = Form(d, {MakeToastPointer(5000, 1200, 0, 16400, 16385)});
  std::vector<uint8_t> tag = e;
  tag[25] = 1;
  EXPECT_EQ(DeformStatus(tag, d).message(), "unexpected toast tag");
  std::vector<uint8_t> unflagged = e;
  StoreLE16(&unflagged[kOffInfomask], kHasVarWidth);
  EXPECT_EQ(DeformStatus(unflagged, d).message(), "external value without HEAP_HASEXTERNAL");
  std::vector<uint8_t> method = e;
  method[24 + 2 + 7] = 0x80;  // va_extinfo's top bits = 2
  EXPECT_EQ(DeformStatus(method, d).message(), "invalid compression method");
  std::vector<uint8_t> huge = e;
  StoreLE32(&huge[24 + 2], 0x40000000);  // va_rawsize beyond 1 GB - 1
  EXPECT_EQ(DeformStatus(huge, d).message(), "toast raw size out of range");
  std::vector<uint8_t> big_ext = e;
  StoreLE32(&big_ext[24 + 6], 4997);  // va_extinfo's size: more than rawsize - 4
  EXPECT_EQ(DeformStatus(big_ext, d).message(), "toast external size exceeds raw size");
  EXPECT_TRUE(FormHeapTuple(d, DatumsOf({MakeToastPointer(100, 97, 0, 1, 2)}))
                  .status()
                  .IsInvalidArgument());
}

// varattrib_1b_e + varatt_external, every field at its place: distinct bytes everywhere, so that a
// field read one byte off reads a different value.
TEST(DeformTest, ToastPointerFieldsAtTheirOffsets) {
  const std::vector<uint8_t> p =
      MakeToastPointer(0x01020304, 0x00050607, 1, 0x0A0B0C0D, 0x11121314);
  EXPECT_EQ(p, (std::vector<uint8_t>{0x01, kVarTagOnDisk, 0x04, 0x03, 0x02, 0x01, 0x07, 0x06, 0x05,
                                     0x40, 0x0D, 0x0C, 0x0B, 0x0A, 0x14, 0x13, 0x12, 0x11}));
  const ToastPointer t = ReadToastPointer(ByteView(p));
  EXPECT_EQ(t.rawsize, 0x01020304u);
  EXPECT_EQ(t.extsize, 0x00050607u);
  EXPECT_EQ(t.method, 1u);
  EXPECT_EQ(t.valueid, 0x0A0B0C0Du);
  EXPECT_EQ(t.toastrelid, 0x11121314u);
  const ToastPointer zero{};
  EXPECT_EQ(std::vector<uint32_t>(
                {zero.rawsize, zero.extsize, zero.method, zero.valueid, zero.toastrelid}),
            std::vector<uint32_t>(5, 0));
}

// Each header form's length checks at their exact boundaries, on bytes that end where the value
// does.
TEST(DeformTest, VarlenaHeadersAtTheirExactLengths) {
  const auto message = [](std::vector<uint8_t> bytes) {
    const StatusOr<size_t> size = CheckedVarlenaSize(ByteView(bytes));
    return size.ok() ? "size " + std::to_string(*size) : size.status().message();
  };
  EXPECT_EQ(message({}), "truncated varlena header");
  // External: the 2-byte header, then the 18-byte pointer.
  EXPECT_EQ(message({0x01}), "truncated varlena header");
  EXPECT_EQ(message({0x01, kVarTagOnDisk}), "varlena extends past end of tuple");
  std::vector<uint8_t> pointer = MakeToastPointer(5000, 1200, 0, 16400, 16385);
  ASSERT_EQ(pointer.size(), kToastPointerSize);
  EXPECT_EQ(message(pointer), "size 18");
  pointer.pop_back();
  EXPECT_EQ(message(pointer), "varlena extends past end of tuple");
  // 4-byte header: an empty value is the header alone.
  EXPECT_EQ(message({4 << 2, 0, 0}), "truncated varlena header");
  EXPECT_EQ(message({4 << 2, 0, 0, 0}), "size 4");
  // Compressed inline: the 4-byte header, then va_tcinfo; `size` bytes in all (zeros after them).
  const auto compressed = [](uint32_t size, uint32_t tcinfo) {
    std::vector<uint8_t> bytes;
    PutLE32(&bytes, size << 2 | 2);
    PutLE32(&bytes, tcinfo);
    bytes.resize(size);
    return bytes;
  };
  // Both at least (8 bytes, VARHDRSZ_COMPRESSED): 7 would put va_tcinfo's last byte past the value.
  EXPECT_EQ(message(compressed(7, 0)), "bad varlena size");
  EXPECT_EQ(message(compressed(8, 0)), "size 8");
  // va_tcinfo's top two bits are the method, pglz (0) or lz4 (1).
  for (const uint32_t method : {0u, 1u, 2u, 3u}) {
    EXPECT_EQ(message(compressed(12, 100 | method << 30)),
              method <= 1 ? "size 12" : "invalid compression method")
        << method;
  }
}

// A 1-byte header claiming more bytes than are left: the whole deform also fails on the trailing
// bytes, but single-attribute access of an earlier attribute has only the varlena check.
TEST(DeformTest, ShortVarlenaPastTheTupleIsCorruption) {
  EXPECT_EQ(CheckedVarlenaSize(ByteView(std::vector<uint8_t>{0x0B, 'a', 'b'})).status().message(),
            "varlena extends past end of tuple");  // 0x0B: 1-byte header, 5 bytes in all
  TupleDesc d = Desc("text,int4");
  std::vector<uint8_t> t = Form(d, {Text("ab"), Int4(7)});
  ASSERT_EQ(t[24], 0x07);  // 'ab' packed: 3 bytes
  t[24] = 0x7F;            // now 63 bytes, past the end
  EXPECT_EQ(DeformStatus(t, d).message(), "varlena extends past end of tuple");
  EXPECT_EQ(GetAttribute(ByteView(t), d, 0).status().message(),
            "varlena extends past end of tuple");
}

TEST(DeformTest, UnterminatedCstringIsCorruption) {
  TupleDesc d = Desc("cstring");
  std::vector<uint8_t> s = {'h', 'i'};
  std::vector<uint8_t> t = Form(d, {s});
  t.pop_back();
  EXPECT_EQ(DeformStatus(t, d).message(), "unterminated cstring");
}

TEST(DeformTest, OidFlagIsCorruption) {
  TupleDesc d = Desc("int4");
  std::vector<uint8_t> t = Form(d, {Int4(1)});
  t[kOffInfomask] |= kHasOidOld;
  EXPECT_EQ(DeformStatus(t, d).message(), "unexpected oid flag");
}

}  // namespace
}  // namespace pgstore::tuple
