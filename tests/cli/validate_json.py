#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# Validate rawprobectl's JSON output against docs/schema/rawprobectl-v2.json.
#   validate_json.py DEF [FILE]   each line of FILE (or stdin) is one
#                                 document of $defs/DEF ("-": the whole
#                                 input is one document, e.g. -p output)
#   validate_json.py --check      the schema itself is a valid schema
#   validate_json.py --batch DIR  every file of DIR, named TEST~DEF~N (as
#                                 tests/vm/lib.sh's schema() writes them),
#                                 one "ok"/"not ok - PREFIX TEST: schema
#                                 DEF" line each (PREFIX: $T_CASE); one
#                                 start for a case's documents, where
#                                 jsonschema's import alone takes seconds
#                                 in a TCG guest
# Prints "valid: N documents" or the first error; exit 0 or 1.
# Debian's python3-jsonschema (tools/deps.sh), hence /usr/bin/python3.
import json
import os
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, '..', '..', 'docs', 'schema', 'rawprobectl-v2.json')


def validator_of(schema, cls, name):
    """The validator of $defs/NAME (a trailing '-': whole input), or None."""
    name = name.rstrip('-')
    if name not in schema['$defs']:
        return None
    sub = dict(schema, **{'$ref': '#/$defs/' + name})
    del sub['anyOf']
    return cls(sub)


def first_error(validator, text, whole):
    """None, or what is wrong with the first bad document of text."""
    docs = [text] if whole else [l for l in text.splitlines() if l.strip()]
    if not docs:
        return 'no documents'
    for i, doc in enumerate(docs):
        try:
            validator.validate(json.loads(doc))
        except (ValueError, jsonschema.ValidationError) as e:
            return 'document %d: %s\n    in: %s' % (
                i + 1, str(e).splitlines()[0], doc[:300])
    return None


def batch(schema, cls, folder):
    prefix = os.environ.get('T_CASE', '')
    bad = 0
    for f in sorted(os.listdir(folder)):
        test, name = f.split('~')[:2]
        validator = validator_of(schema, cls, name)
        with open(os.path.join(folder, f)) as fp:
            err = first_error(validator, fp.read(), name.endswith('-')) \
                if validator else 'no definition %r in the schema' % name
        what = '%s%s: schema %s' % (prefix, test, name.rstrip('-'))
        if err:
            bad += 1
            print('    FAIL: %s' % err, file=sys.stderr)
            print('not ok - ' + what)
        else:
            print('ok - ' + what)
    return 1 if bad else 0


def main(argv):
    with open(SCHEMA) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    if argv[1:] == ['--check']:
        print('valid: schema')
        return 0
    if argv[1] == '--batch':
        return batch(schema, cls, argv[2])
    name = argv[1]
    validator = validator_of(schema, cls, name)
    if not validator:
        print('no definition %r in the schema' % name.rstrip('-'))
        return 1
    text = open(argv[2]).read() if len(argv) > 2 else sys.stdin.read()
    err = first_error(validator, text, name.endswith('-'))
    if err:
        print(err)
        return 1
    n = 1 if name.endswith('-') else \
        len([l for l in text.splitlines() if l.strip()])
    print('valid: %d documents' % n)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
