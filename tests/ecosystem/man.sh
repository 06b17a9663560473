#!/bin/sh
# Renders a man page as man(1) does and fails on any groff warning, a
# missing NAME section or an empty page.  Usage: man.sh PAGE
set -u
page=$1
fail() { echo "man: FAIL: $page: $*" >&2; exit 1; }
[ -f "$page" ] || fail "not found"
command -v man >/dev/null || fail "man not installed (man-db)"
err=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" 2>&1 >/dev/null)
[ -z "$err" ] || fail "warnings:
$err"
text=$(MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$page" 2>/dev/null) || fail "man -l failed"
echo "$text" | grep -q '^NAME' || fail "no NAME section"
echo "$text" | grep -q '^SEE ALSO' || fail "no SEE ALSO section"
wide=$(echo "$text" | awk 'length($0) > 80' | head -n 1)
[ -z "$wide" ] || fail "line wider than 80 columns: $wide"
echo "man: $page: $(echo "$text" | wc -l) lines, no warnings"
