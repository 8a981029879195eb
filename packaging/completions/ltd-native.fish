# fish completion for ltd-native.
#
# Nothing here lists ltd-native's options or subcommands: they are asked
# of the program (`--complete-options`, the usage lines of `--help`) when
# this file loads; running cages of `ps --json`, pending reviews of
# `review --json` (where it exists), pins of `ltd-rootfs list`, when
# completing.

function __ltd_native_json_names
    $argv 2>/dev/null | string match -ar '"name": *"[A-Za-z0-9_.-]*"' |
        string replace -r '.*"([^"]*)"$' '$1'
end

function __ltd_native_pins
    set -l rfs (path dirname -- (command -s ltd-native))/ltd-rootfs
    test -x "$rfs"; or set rfs (command -s ltd-rootfs); or return
    $rfs list 2>/dev/null | string split -f1,2 \t | string match -v -- -
end

# The subcommands (second words of the usage lines), or with an argument
# the words that may follow that subcommand.
function __ltd_native_subcommands
    ltd-native --help 2>/dev/null | awk -v want="$argv[1]" '
        /^usage: / { on = 1; sub(/^usage: /, "") }
        on && /^ *$/ { exit }
        on {
            sub(/^ +/, "")
            w = (want == "") ? $2 : ($2 == want ? $3 : "")
            if (w ~ /^[a-z][a-z-]*$/) print w
        }' | sort -u
end

# True while completing the run options: after `run` or `policy show`,
# before `--`.
function __ltd_native_in_run
    set -l words (commandline -opc)
    contains -- -- $words; and return 1
    contains -- run $words[2]; and return 0
    test "$words[2]" = policy -a "$words[3]" = show
end

function __ltd_native_after_dashdash
    contains -- -- (commandline -opc)
end

command -q ltd-native; or exit

complete -c ltd-native -f
complete -c ltd-native -n __fish_use_subcommand -a '(__ltd_native_subcommands)'
complete -c ltd-native -n __fish_use_subcommand -l help -d 'print the usage'
complete -c ltd-native -n __fish_use_subcommand -l version -d 'print the version and what the build holds'
complete -c ltd-native -n '__fish_seen_subcommand_from policy; and not __fish_seen_subcommand_from (__ltd_native_subcommands policy)' \
    -a '(__ltd_native_subcommands policy)'
complete -c ltd-native -n '__fish_seen_subcommand_from exec kill; and test (count (commandline -opc)) -eq 2' \
    -a '(__ltd_native_json_names ltd-native ps --json)' -d 'running cage'
complete -c ltd-native -n '__fish_seen_subcommand_from kill; and test (count (commandline -opc)) -eq 3' \
    -a 'INT TERM HUP QUIT USR1 USR2 WINCH KILL'
complete -c ltd-native -n '__fish_seen_subcommand_from review diff apply discard; and test (count (commandline -opc)) -eq 2' \
    -a '(__ltd_native_json_names ltd-native review --json)' -d 'pending review'
complete -c ltd-native -n '__fish_seen_subcommand_from ps doctor review' -l json -d 'JSON output'
complete -c ltd-native -n __ltd_native_after_dashdash -F

# The run options, from the option table.
for line in (ltd-native --complete-options 2>/dev/null)
    set -l f (string split \t -- $line)
    set -l name (string replace -r '^--' '' -- $f[1])
    set -l args -c ltd-native -n __ltd_native_in_run -l $name -d $f[5]
    switch "$name:$f[3]"
        case network:\*
            complete $args -x -a 'allowlist none host'
        case rootfs:\*
            complete $args -x -a '(__ltd_native_pins)'
        case review:\*
            complete $args -x -a '(__ltd_native_json_names ltd-native review --json)'
        case \*:DIR
            complete $args -x -a '(__fish_complete_directories)'
        case '*:*FILE*' '*:SRC*' '*:DST' '*:PATH*'
            complete $args -r -F
        case '*'
            if test $f[2] -gt 0
                complete $args -x
            else
                complete $args
            end
    end
end
