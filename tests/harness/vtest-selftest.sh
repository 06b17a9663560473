#!/bin/sh
# Runs each vtest self-test case alone and checks its exit status and TAP.
set -u
bin=$1
rc=0
check() {
	name=$1 want=$2 tap=$3
	out=$("$bin" "$name" 2>&1)
	got=$?
	if [ "$got" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q "^$tap"; then
		echo "FAIL $name: exit $got (want $want), want TAP line '$tap'"
		printf '%s\n' "$out" | sed 's/^/    /'
		rc=1
	else
		echo "ok   $name"
	fi
}
check pass_simple 0 "ok 1 pass_simple"
check fail_assert 1 "not ok 1 fail_assert"
check fail_expect_continues 1 "# still running"
check fail_errno 1 "not ok 1 fail_errno"
check fail_signal 1 "# killed by signal 11"
check fail_timeout 1 "# timed out after 1 s"
check skip_reason 77 "ok 1 skip_reason # SKIP needs nothing"
check counter.pass_fixture 0 "ok 1 counter.pass_fixture"
check counter.fail_teardown 1 "not ok 1 counter.fail_teardown"
check 'pass_*' 0 "# 2 passed, 0 failed, 0 skipped"
check pass_mixed_sign 0 "ok 1 pass_mixed_sign"
check '*' 1 "# 3 passed, 6 failed, 1 skipped"
exit $rc
