// Prints storage/tuple's type table as pg_type would list it, one type a line, tab-separated:
//   typname  typlen  typalign  typbyval (t/f)  typstorage
// for every base type AttributeForType knows and for its array type (typname "_" + element), so
// that pg_types_live_test can compare it with a real PostgreSQL 15's pg_type. A schema's "char"
// (quoted) is pg_type's char; an unquoted char is the same type.
#include <iostream>
#include <string>

#include "storage/tuple/tuple_desc.h"

namespace {

void Print(const std::string& typname, const pgstore::tuple::Attribute& a) {
  std::cout << typname << '\t' << a.attlen << '\t' << a.attalign << '\t' << (a.attbyval ? 't' : 'f')
            << '\t' << a.attstorage << '\n';
}

}  // namespace

int main() {
  for (const std::string& name : pgstore::tuple::KnownTypeNames()) {
    const std::string typname = name == "\"char\"" ? "char" : name;
    const auto base = pgstore::tuple::AttributeForType(name);
    const auto array = pgstore::tuple::AttributeForType(name + "[]");
    if (!base.ok() || !array.ok()) {
      std::cerr << "pg_types: " << name << " is listed but not known\n";
      return 1;
    }
    Print(typname, *base);
    Print("_" + typname, *array);
  }
  return 0;
}
