#!/usr/bin/perl
# tap-verdicts.pl LABEL=FILE...: each TAP stream read by TAP::Parser (the parser prove uses, so
# TODO and SKIP mean what TAP says: a 'not ok ... # TODO' and a SKIP fail nothing), one summary
# line per stream, then each real failure. Exit 0 when no stream has a failing point or a TAP
# error (a plan that does not match, a bail out), else 1. scripts/main-job.sh counts through it.
use strict;
use warnings;
use TAP::Parser;

my $failed_streams = 0;
my @failures;
for my $arg (@ARGV) {
    my ($label, $file) = $arg =~ /^([^=]+)=(.*)$/ ? ($1, $2) : ($arg, $arg);
    # The text, not the file: given a file, TAP::Parser would run it as a test script.
    open(my $fh, '<', $file) or die "tap-verdicts.pl: cannot read $file: $!\n";
    my $text = do { local $/; <$fh> };
    close($fh);
    my $parser = TAP::Parser->new({tap => $text});
    my %n = (ok => 0, fail => 0, todo => 0, skip => 0);
    my $bail;
    while (my $r = $parser->next) {
        $bail = $r->explanation if $r->is_bailout;
        next unless $r->is_test;
        if ($r->has_skip) { $n{skip}++ }
        elsif ($r->has_todo) { $n{todo}++ }
        elsif ($r->is_ok) { $n{ok}++ }
        else { $n{fail}++; push @failures, "$label: " . $r->as_string }
    }
    my @errors = $parser->parse_errors;
    push @errors, "bailed out: $bail" if defined $bail;
    push @failures, map { "$label: TAP error: $_" } @errors;
    $failed_streams++ if $n{fail} || @errors;
    printf "%s: %d points: %d ok, %d not ok, %d todo, %d skip%s\n", $label, $n{ok} + $n{fail} + $n{todo} + $n{skip},
        $n{ok}, $n{fail}, $n{todo}, $n{skip}, @errors ? "; " . scalar(@errors) . " TAP errors" : "";
}
print "  $_\n" for @failures;
exit($failed_streams ? 1 : 0);
