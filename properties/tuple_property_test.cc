// Laws of storage/tuple, checked against the reference model (properties/models/tuple_model).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "properties/generators/tuple_generators.h"
#include "properties/generators/tuple_model_adapter.h"
#include "properties/models/tuple_model.h"
#include "storage/tuple/deform.h"
#include "storage/tuple/form.h"
#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/tuple_header.h"

namespace pgstore::tuple {
namespace {

using generators::genTupleCase;
using generators::OwnedRow;
using generators::TupleCase;

constexpr TrailingNulls kModes[] = {TrailingNulls::kOff, TrailingNulls::kKeepBitmap,
                                    TrailingNulls::kDropBitmap};

using generators::ModelAttrsOf;

models::ModelTruncation ModelMode(TrailingNulls m) { return generators::ModelTruncationOf(m); }

OwnedRow Owned(const std::vector<Datum>& values) {
  OwnedRow out;
  for (const Datum& d : values) {
    out.push_back(d ? std::optional<std::vector<uint8_t>>(d->ToVector()) : std::nullopt);
  }
  return out;
}

std::vector<uint8_t> MustForm(const TupleCase& c, TrailingNulls mode) {
  FormOptions o;
  o.trailing_nulls = mode;
  StatusOr<std::vector<uint8_t>> t = FormHeapTuple(c.desc, DatumsOf(c.values), o);
  RC_ASSERT(t.ok());
  return *t;
}

RC_GTEST_PROP(TupleProperty, DeformInvertsFormInEveryMode, ()) {
  const TupleCase c = *genTupleCase();
  for (TrailingNulls mode : kModes) {
    const std::vector<uint8_t> t = MustForm(c, mode);
    StatusOr<OwnedRow> back = CanonicalValues(ByteView(t), c.desc);
    RC_ASSERT(back.ok());
    RC_ASSERT(*back == generators::CanonicalRow(c.desc, c.values));
  }
}

RC_GTEST_PROP(TupleProperty, FormMatchesModelByteForByte, ()) {
  const TupleCase c = *genTupleCase();
  for (TrailingNulls mode : kModes) {
    RC_ASSERT(MustForm(c, mode) ==
              models::ModelFormTuple(ModelAttrsOf(c.desc), c.values, ModelMode(mode)));
  }
}

RC_GTEST_PROP(TupleProperty, TruncatedAndUntruncatedDeformAlike, ()) {
  const TupleCase c = *genTupleCase();
  const std::vector<uint8_t> off = MustForm(c, TrailingNulls::kOff);
  for (TrailingNulls mode : {TrailingNulls::kKeepBitmap, TrailingNulls::kDropBitmap}) {
    const std::vector<uint8_t> t = MustForm(c, mode);
    RC_ASSERT(Owned(*DeformHeapTuple(ByteView(t), c.desc)) ==
              Owned(*DeformHeapTuple(ByteView(off), c.desc)));
  }
}

RC_GTEST_PROP(TupleProperty, TruncationNeverMakesATupleLonger, ()) {
  const TupleCase c = *genTupleCase();
  const size_t off = MustForm(c, TrailingNulls::kOff).size();
  const size_t keep = MustForm(c, TrailingNulls::kKeepBitmap).size();
  const size_t drop = MustForm(c, TrailingNulls::kDropBitmap).size();
  RC_TAG(keep < off ? "keep-bitmap shorter" : "keep-bitmap same");
  RC_ASSERT(keep <= off);
  RC_ASSERT(drop <= keep);
}

RC_GTEST_PROP(TupleProperty, NoTruncationCostWithoutTrailingNulls, ()) {
  TupleCase c = *genTupleCase();
  RC_PRE(c.desc.natts() > 0);
  if (!c.values.back()) c.values.back() = generators::GenValue(c.desc.attr(c.desc.natts() - 1));
  const std::vector<uint8_t> off = MustForm(c, TrailingNulls::kOff);
  RC_ASSERT(MustForm(c, TrailingNulls::kKeepBitmap) == off);
}

RC_GTEST_PROP(TupleProperty, FormingIsDeterministic, ()) {
  const TupleCase c = *genTupleCase();
  for (TrailingNulls mode : kModes) RC_ASSERT(MustForm(c, mode) == MustForm(c, mode));
}

RC_GTEST_PROP(TupleProperty, GetAttributeAgreesWithDeform, ()) {
  const TupleCase c = *genTupleCase();
  RC_PRE(c.desc.natts() > 0);
  const std::vector<uint8_t> t = MustForm(c, *rc::gen::element(kModes[0], kModes[1], kModes[2]));
  const std::vector<Datum> all = *DeformHeapTuple(ByteView(t), c.desc);
  const int i = *rc::gen::inRange(0, c.desc.natts());
  StatusOr<Datum> one = GetAttribute(ByteView(t), c.desc, i);
  RC_ASSERT(one.ok());
  RC_ASSERT(Owned({*one}) == Owned({all[i]}));
}

// Formed tuples with bytes changed, cut or added: storage/tuple accepts exactly what the model
// accepts and reads the same values.
RC_GTEST_PROP(TupleProperty, DeformOfDamagedTupleMatchesModel, ()) {
  const TupleCase c = *genTupleCase();
  std::vector<uint8_t> t = MustForm(c, *rc::gen::element(kModes[0], kModes[1], kModes[2]));
  const int edits = *rc::gen::inRange(1, 4);
  for (int e = 0; e < edits; ++e) {
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        if (!t.empty()) t[*rc::gen::inRange<size_t>(0, t.size())] = *rc::gen::arbitrary<uint8_t>();
        break;
      case 1:  // cut a few bytes off the end
        if (!t.empty())
          t.resize(t.size() - *rc::gen::inRange<size_t>(1, std::min<size_t>(t.size(), 16) + 1));
        break;
      case 2:
        t.push_back(*rc::gen::arbitrary<uint8_t>());
        break;
      default:  // a header field: natts, infomask or t_hoff
        if (t.size() > kHeaderSize) {
          t[*rc::gen::element(size_t{kOffInfomask2}, size_t{kOffInfomask}, size_t{kOffHoff})] =
              *rc::gen::arbitrary<uint8_t>();
        }
        break;
    }
  }
  StatusOr<std::vector<Datum>> ours = DeformHeapTuple(ByteView(t), c.desc);
  std::optional<models::ModelRow> model = models::ModelDeformTuple(ModelAttrsOf(c.desc), t);
  RC_TAG(ours.ok() ? "accepted" : ours.status().message());
  RC_ASSERT(ours.ok() == model.has_value());
  if (ours.ok()) RC_ASSERT(Owned(*ours) == *model);
}

RC_GTEST_PROP(TupleProperty, HeaderLengthIsMaxalignedFormula, ()) {
  const TupleCase c = *genTupleCase();
  for (TrailingNulls mode : kModes) {
    const std::vector<uint8_t> t = MustForm(c, mode);
    const TupleHeader h = *ParseTupleHeader(ByteView(t));
    RC_ASSERT(h.hoff == HeaderLength(h.natts, h.has_null()));
    RC_ASSERT(h.hoff % kMaxAlign == 0);
  }
}

}  // namespace
}  // namespace pgstore::tuple
