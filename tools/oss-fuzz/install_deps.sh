#!/bin/bash -eu
# Installs what build.sh needs into an OSS-Fuzz / ClusterFuzzLite base-builder image (Ubuntu):
# PostgreSQL 15's server headers and libpgcommon.a from the PostgreSQL project's apt repository
# (Ubuntu's own archive has older PostgreSQL releases), python3 and zip.
apt-get update
apt-get install -y --no-install-recommends ca-certificates curl gnupg lsb-release python3 zip
install -d /usr/share/postgresql-common/pgdg
curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc \
  https://www.postgresql.org/media/keys/ACCC4CF8.asc
echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] \
https://apt.postgresql.org/pub/repos/apt $(lsb_release -cs)-pgdg main" \
  > /etc/apt/sources.list.d/pgdg.list
apt-get update
apt-get install -y --no-install-recommends postgresql-server-dev-15
