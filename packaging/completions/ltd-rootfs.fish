# fish completion for ltd-rootfs.

function __ltd_rootfs_pins
    ltd-rootfs list 2>/dev/null | string split -f1,2 \t | string match -v -- -
end

complete -c ltd-rootfs -f
complete -c ltd-rootfs -n __fish_use_subcommand -a 'import build list verify rm'
complete -c ltd-rootfs -n __fish_use_subcommand -l help -d 'print the usage'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from verify rm; and test (count (commandline -opc)) -eq 2' \
    -a '(__ltd_rootfs_pins)' -d pin
complete -c ltd-rootfs -n '__fish_seen_subcommand_from import; and test (count (commandline -opc)) -eq 3' -F
complete -c ltd-rootfs -n '__fish_seen_subcommand_from import' -l digest -x -d 'the image must have this digest'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from import' -l max-bytes -x -d 'unpacked in all (16G)'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from import' -l max-file-bytes -x -d 'one file (4G)'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from import' -l max-entries -x -d 'entries (1000000)'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from import' -l max-layers -x -d 'layers (256)'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from import' -l max-depth -x -d 'directory depth (256)'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from build' -l suite -x -d 'Debian suite'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from build' -l packages -x -d 'A,B,...'
complete -c ltd-rootfs -n '__fish_seen_subcommand_from build' -l mirror -x -d URL
complete -c ltd-rootfs -n '__fish_seen_subcommand_from build' -l source-date-epoch -x -d N
