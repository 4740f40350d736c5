#!/bin/sh
echo "schema engine not available in this environment; migrations are applied by npm run db:migrate" >&2
exit 1
