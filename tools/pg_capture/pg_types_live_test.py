#!/usr/bin/env python3
"""storage/tuple's type table against a real PostgreSQL 15's pg_type: for every base type pgstore
knows and its array type, typlen, typalign, typbyval and typstorage must be what the server's
catalog says (a throwaway cluster, pgcluster.py). Fails naming each type that differs or that the
server does not have."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from pgcluster import Cluster, require_postgres  # noqa: E402


def main(pg_types):
    # (typname, fields) per line: two schema names ("char" and char) list the same typname.
    listing = subprocess.run([pg_types], check=True, capture_output=True, text=True).stdout
    ours = [(name, fields) for name, *fields in (line.split("\t") for line in listing.splitlines())]
    require_postgres()
    cluster = Cluster("pg_types_live_test")
    try:
        cluster.start()
        names = ", ".join(sorted({f"'{name}'" for name, _ in ours}))
        rows = cluster.sql("SELECT typname, typlen, typalign,"
                           " CASE WHEN typbyval THEN 't' ELSE 'f' END, typstorage FROM pg_type"
                           f" WHERE typname IN ({names})"
                           " AND typnamespace = 'pg_catalog'::regnamespace")
    finally:
        cluster.cleanup()
    theirs = {}
    for line in rows.splitlines():
        name, *fields = line.split("\t")
        theirs[name] = fields
    bad = []
    for name, fields in ours:
        if name not in theirs:
            bad.append(f"{name}: not in PostgreSQL 15's pg_type")
        elif fields != theirs[name]:
            bad.append(f"{name}: pgstore has {' '.join(fields)}, pg_type has"
                       f" {' '.join(theirs[name])} (typlen typalign typbyval typstorage)")
    for b in bad:
        print("pg_types_live_test:", b)
    if bad:
        return 1
    print(f"pg_types_live_test: {len(ours)} types ({len(theirs)} typnames) as PostgreSQL 15's"
          " pg_type has them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
