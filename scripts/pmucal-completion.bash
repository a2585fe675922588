# bash completion for pmucal, installed as share/bash-completion/completions/pmucal. Everything
# comes from the binary at completion time, so it is never out of date: commands from
# 'pmucal --help', options from 'pmucal COMMAND --help', kernels and their parameters from
# 'pmucal kernels', event names from this host's catalog ('pmucal events').
_pmucal() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} prog=${COMP_WORDS[0]}
    local cmd=${COMP_WORDS[1]} words i kernel=""
    if [ "$COMP_CWORD" -eq 1 ]; then
        words=$("$prog" --help 2> /dev/null | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
        COMPREPLY=($(compgen -W "$words --help --version --man" -- "$cur"))
        return
    fi
    case $prev in
    -e | --events)
        # perf's generic and software names, then the host catalog's
        words="all instructions cycles branches branch-misses page-faults minor-faults major-faults"
        words="$words context-switches cpu-migrations task-clock cpu-clock"
        COMPREPLY=($(compgen -W "$words $("$prog" events 2> /dev/null | awk '!/^#/ { print $1 }')" -- "$cur"))
        return ;;
    --kernel)
        COMPREPLY=($(compgen -W "$("$prog" kernels 2> /dev/null | awk -F: '/^[a-z0-9_]+:/ { print $1 }')" -- "$cur"))
        return ;;
    --expect | --vendor-json | -o | --output | --asm | --bin | --out)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    esac
    if [[ $cur == -* ]]; then
        words=$("$prog" "$cmd" --help 2> /dev/null |
            awk '/^Options:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  -/ { print }' |
            sed -E 's/^  (-[A-Za-z0-9]), (--[a-z0-9-]+).*/\1 \2/; s/^  (--[a-z0-9-]+).*/\1/')
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return
    fi
    case $cmd in
    run | gen | kernels)
        for ((i = 2; i < COMP_CWORD; i++)); do
            case ${COMP_WORDS[i]} in -*) ;; *=*) ;; *) kernel=${COMP_WORDS[i]}; break ;; esac
        done
        if [ -z "$kernel" ]; then
            words=$("$prog" kernels 2> /dev/null | awk -F: '/^[a-z0-9_]+:/ { print $1 }')
        else
            words=$("$prog" kernels "$kernel" 2> /dev/null | awk '/^  [a-z0-9_]+ +default / { print $1 "=" }')
            compopt -o nospace 2> /dev/null
        fi
        COMPREPLY=($(compgen -W "$words" -- "$cur")) ;;
    classify | emit | compare | report | replay)
        COMPREPLY=($(compgen -d -- "$cur")) ;;
    expect)
        COMPREPLY=($(compgen -W "check" -- "$cur")) ;;
    esac
}
complete -F _pmucal pmucal
