#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# Validate rawprobectl's JSON output against docs/schema/rawprobectl-v2.json.
#   validate_json.py DEF [FILE]   each line of FILE (or stdin) is one
#                                 document of $defs/DEF ("-": the whole
#                                 input is one document, e.g. -p output)
#   validate_json.py --check      the schema itself is a valid schema
# Prints "valid: N documents" or the first error; exit 0 or 1.
# Debian's python3-jsonschema (tools/deps.sh), hence /usr/bin/python3.
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, '..', '..', 'docs', 'schema', 'rawprobectl-v2.json')


def main(argv):
    with open(SCHEMA) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    if argv[1:] == ['--check']:
        print('valid: schema')
        return 0
    name = argv[1]
    whole = name.endswith('-')
    name = name.rstrip('-')
    if name not in schema['$defs']:
        print('no definition %r in the schema' % name)
        return 1
    sub = dict(schema, **{'$ref': '#/$defs/' + name})
    del sub['anyOf']
    validator = cls(sub)
    text = open(argv[2]).read() if len(argv) > 2 else sys.stdin.read()
    docs = [text] if whole else [l for l in text.splitlines() if l.strip()]
    if not docs:
        print('no documents')
        return 1
    for i, doc in enumerate(docs):
        try:
            validator.validate(json.loads(doc))
        except (ValueError, jsonschema.ValidationError) as e:
            print('document %d: %s' % (i + 1, str(e).splitlines()[0]))
            print('    in: %s' % doc[:300])
            return 1
    print('valid: %d documents' % len(docs))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
