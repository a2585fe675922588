#!/usr/bin/perl
# ktap-check.pl FILE: does FILE follow KTAP version 1 (Linux Documentation/dev-tools/ktap.rst)?
# Checked: every level opens with 'KTAP version 1' and its plan '1..N' follows; result lines
# '<ok|not ok> <number> <name>[ # <directive> ...]' are numbered 1..N at their level, N as
# planned; a subtest is indented two spaces more than its parent and comes before the parent's
# result; a parent with subtests is 'not ok' exactly when one of them is (SKIP and XFAIL fail
# nothing); names hold no '#'; directives are KTAP's (SKIP, XFAIL, TIMEOUT, ERROR: TODO is TAP's).
# Diagnostic lines ('# ...') may stand anywhere. Prints each test's result and dotted path
# ("ok pmucal.validate.CASE.EVENT", with " SKIP" or " XFAIL"); exit 1 with the first violation.
use strict;
use warnings;

my @lines = do { open(my $fh, '<', $ARGV[0]) or die "ktap-check.pl: $ARGV[0]: $!\n"; <$fh> };
chomp @lines;
my $i = 0;
my @paths;
sub fail { print STDERR "$ARGV[0]:" . ($i + 1) . ": $_[0]\n"; exit 1 }
sub skip_diag { $i++ while $i < @lines && $lines[$i] =~ /^\s*#/ }

# block(DEPTH, PREFIX): one level; returns whether any of its tests failed.
sub block {
    my ($depth, $prefix) = @_;
    my $ind = '  ' x $depth;
    skip_diag();
    fail("expected '${ind}KTAP version 1'") unless $i < @lines && $lines[$i] eq "${ind}KTAP version 1";
    $i++;
    fail("expected the plan '${ind}1..N' right after the version line") unless $i < @lines && $lines[$i] =~ /^\Q$ind\E1\.\.(\d+)$/;
    my $plan = $1;
    $i++;
    my ($n, $failed) = (0, 0);
    while (1) {
        skip_diag();
        last if $i >= @lines;
        my ($sub_failed, $has_sub) = (0, 0);
        if ($lines[$i] =~ /^\Q$ind\E  KTAP version 1$/) {
            $sub_failed = block($depth + 1, undef);
            $has_sub = 1;
            skip_diag();
        }
        last if $i >= @lines || $lines[$i] !~ /^\Q$ind\E(ok|not ok) /;
        my ($res, $no, $name, $dir) = $lines[$i] =~ /^\Q$ind\E(ok|not ok) (\d+) ([^#]*?)(?: # (\S+).*)?$/
            or fail("not a KTAP result line: '$lines[$i]'");
        fail("test $no at this level: expected " . ($n + 1)) unless $no == $n + 1;
        fail("a name must not be empty") if $name eq '';
        fail("directive '$dir' is not KTAP's (SKIP, XFAIL, TIMEOUT, ERROR)") if defined $dir && $dir !~ /^(SKIP|XFAIL|TIMEOUT|ERROR)$/;
        my $bad = $res eq 'not ok' && !(defined $dir && $dir =~ /^(SKIP|XFAIL)$/);
        fail("'$name' is " . ($bad ? 'not ok' : 'ok') . " but " . ($sub_failed ? 'a' : 'no') . " subtest failed")
            if $has_sub && $bad != $sub_failed;
        $n++;
        $failed ||= $bad;
        my $path = defined $prefix ? "$prefix.$name" : $name;
        push @paths, [$path, $res, $dir, $depth, $has_sub];
        $i++;
    }
    fail("planned $plan tests, found $n") unless $n == $plan;
    return $failed;
}

block(0, undef);
skip_diag();
fail("a line after the last result: '$lines[$i]'") if $i < @lines;
# Paths: a test's path is its parent's path, '.', its name. Results come after their subtests, so
# join from the end: each level's parent is the next result one level up.
my @stack;
for my $p (reverse @paths) {
    my ($name, $res, $dir, $depth) = @$p;
    $#stack = $depth - 1;
    my $full = join('.', (map { $_ } @stack), $name);
    $stack[$depth] = $name;
    print "$res $full" . (defined $dir ? " $dir" : '') . "\n";
}
