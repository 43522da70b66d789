# Sourced by tests/ft/run.sh (uses its pass/fail/wait_regions, $OUT, $INPUT, $REF, $CAPERUN, mpirun).
# The checkpoint directory against other users, run as root and as an ordinary user
# (`capetest`, created when the suite runs as root, as in scripts/nonroot-tests.sh):
# a pre-created directory writable by others or owned by someone else is refused by caperun
# and by the runtime; symlinks planted under the names of every file we write are never
# followed (their target stays intact); files of the user's named like ours are refused and
# kept; a new directory is 0700 and its files 0600.
# As root also: a full disk (small tmpfs) stops the job at once, a directory made unwritable
# mid-run (chattr +i) is reported as such, and a hang until --timeout is counted as time lost.

CKDIR_USER=capetest
CKDIR_FILES="cape.log cape.log.tmp status status.tmp output stdin stdin.tmp caperun.probe"

# runs "$@" as WHO (root: as is) in a shell, with the environment the tests need
ckdir_as() { # who, command...
    local who=$1
    shift
    if [ "$who" = root ]; then
        bash -c "$*"
    else
        # the suite's key file belongs to root: the user keeps its own in its work directory
        su "$who" -s /bin/bash -c "export OMPI_MCA_rmaps_base_oversubscribe=1 CAPE_KEY_FILE=$CKDIR_KEY; $*"
    fi
}

# the bits of FILE's mode
mode_of() { stat -c %a "$1"; }

ckdir_checks() { # who, work directory (owned by who), a file owned by someone else
    local who=$1 w=$2 foreign=$3 ck err
    local bin=$w/ftd$$ run="$w/caperun"
    CKDIR_KEY=$w/user.key
    cp "$OUT/cape" "$bin" && cp "$CAPERUN" "$run" && cp "$INPUT" "$w/input"
    chmod 755 "$bin" "$run" && chmod 644 "$w/input"
    [ "$who" = root ] || chown "$who" "$bin" "$run" "$w/input"

    # 1. writable by others: refused by caperun and by the runtime, nothing written in it
    ck=$w/world
    ckdir_as "$who" "mkdir -m 777 $ck && chmod 777 $ck"
    ckdir_as "$who" "$run -np 2 --checkpoint $ck $bin <$w/input" >"$w/o1" 2>"$w/e1"
    err="caperun: error: the checkpoint directory \`$ck\` is writable by other users; remove it or choose another with \`--checkpoint\`"
    if [ "$(cat "$w/e1")" != "$err" ] || [ -s "$w/o1" ] || [ -n "$(ls -A "$ck")" ]; then
        fail "0777 directory refused by caperun ($who)" "expected only \`$err\`" "$w/e1"
    else
        pass "0777 directory refused by caperun ($who)"
    fi
    ckdir_as "$who" "CAPE_CHECKPOINT=$ck mpirun -np 2 $bin <$w/input" >"$w/o2" 2>"$w/e2"
    if [ "$(grep -c '^capert: error: the checkpoint directory .* is writable by other users; remove it or choose another with `CAPE_CHECKPOINT`$' "$w/e2")" != 1 ] ||
        [ -s "$w/o2" ] || [ -n "$(ls -A "$ck")" ]; then
        fail "0777 directory refused by the runtime ($who)" "expected one capert error line, no output, nothing written" "$w/e2"
    else
        pass "0777 directory refused by the runtime ($who)"
    fi

    # 2. owned by another user (root's for the ordinary user, the ordinary user's for root)
    ck=$w/theirs
    mkdir -m 755 "$ck" && chown "$foreign" "$ck" 2>/dev/null || ck=/ # not root: / is root's
    ckdir_as "$who" "$run -np 2 --checkpoint $ck $bin <$w/input" >"$w/o3" 2>"$w/e3"
    if ! grep -q "^caperun: error: the checkpoint directory \`$ck\` belongs to user $(id -u "$foreign"), not to the user running the job ($(id -u "$who")); remove it" "$w/e3" ||
        { [ "$ck" != / ] && [ -n "$(ls -A "$ck")" ]; }; then
        fail "another user's directory refused ($who)" "not refused, or files written" "$w/e3"
    else
        pass "another user's directory refused ($who)"
    fi

    # 3. symlinks planted under every name we write, in a directory that is otherwise fine
    ck=$w/planted
    ckdir_as "$who" "mkdir -m 700 $ck && echo precious >$w/victim && chmod 644 $w/victim &&
        for f in $CKDIR_FILES; do ln -s $w/victim $ck/\$f; done"
    ckdir_as "$who" "$run -np 2 --checkpoint $ck $bin <$w/input" >"$w/o4" 2>"$w/e4"
    local links
    links=$(find "$ck" -type l | wc -l)
    if [ "$(cat "$w/victim")" != precious ] || [ "$(mode_of "$w/victim")" != 644 ]; then
        fail "planted symlinks not followed ($who)" "the link target changed: $(head -c 60 "$w/victim"), mode $(mode_of "$w/victim")" "$w/e4"
    elif ! cmp -s "$REF" "$w/o4" || [ "$(cat "$ck/status" 2>/dev/null)" != "exit 0" ]; then
        fail "planted symlinks not followed ($who)" "the run did not complete" "$w/e4"
    else
        pass "planted symlinks not followed ($who)" "$links of $(echo $CKDIR_FILES | wc -w) links left (names not written)"
    fi
    # the runtime alone, restarting from that log with links at its files again
    for f in cape.log.tmp status status.tmp output; do
        rm -f "$ck/$f" && ln -s "$w/victim" "$ck/$f"
    done
    [ "$who" = root ] || chown -h "$who" "$ck"/*
    ckdir_as "$who" "CAPE_RESTART=$ck mpirun -np 2 $bin <$w/input" >"$w/o5" 2>"$w/e5"
    if [ "$(cat "$w/victim")" != precious ] || [ -L "$ck/status" ] || [ -s "$w/o5" ]; then
        fail "planted symlinks not followed by a restart ($who)" "target changed, link kept or output repeated" "$w/e5"
    else
        pass "planted symlinks not followed by a restart ($who)"
    fi

    # 5. files of the user's under the names we write (and another file): refused by caperun
    # and by the runtime with one line each, nothing written, every file as it was
    ck=$w/mine
    ckdir_as "$who" "mkdir -m 700 $ck && cd $ck && echo results >output && echo notes >status &&
        echo deck >stdin && echo 'my own cape.log' >cape.log && echo other >notes.txt"
    local before after
    before=$(cd "$ck" && ls -A && cat output status stdin cape.log notes.txt)
    ckdir_as "$who" "$run -np 2 --checkpoint $ck $bin <$w/input" >"$w/o7" 2>"$w/e7"
    local rc7=$?
    ckdir_as "$who" "CAPE_CHECKPOINT=$ck mpirun -np 2 $bin <$w/input" >"$w/o8" 2>"$w/e8"
    after=$(cd "$ck" && ls -A && cat output status stdin cape.log notes.txt)
    if [ $rc7 != 1 ] || [ "$(wc -l <"$w/e7")" != 1 ] || [ -s "$w/o7" ] ||
        ! grep -q "^caperun: error: \`$ck/cape.log\` was not written by capecc: .*nothing was written: move it away, or choose another directory with \`--checkpoint\`$" "$w/e7"; then
        fail "the user's files refused by caperun ($who)" "status $rc7, expected one caperun error line" "$w/e7"
    elif [ "$(grep -c '^capert: error: `.*/cape.log` was not written by capecc: .*nothing was written: move it away, or choose another directory with `CAPE_CHECKPOINT`$' "$w/e8")" != 1 ] ||
        [ "$(grep -c '^capert:' "$w/e8")" != 1 ] || [ -s "$w/o8" ]; then
        fail "the user's files refused by the runtime ($who)" "expected one capert error line, no output" "$w/e8"
    elif [ "$before" != "$after" ]; then
        fail "the user's files refused ($who)" "the directory changed: $(cd "$ck" && ls -A | tr '\n' ' ')"
    else
        pass "the user's files refused ($who)" "by caperun and the runtime, nothing written"
    fi

    # 6. a setting the program cannot use: one line from rank 0, `error` in DIR/status, and
    # caperun does not relaunch
    ck=$w/badenv
    ckdir_as "$who" "CAPE_MERGE=garbage $run -np 2 --checkpoint $ck $bin <$w/input" >"$w/o9" 2>"$w/e9"
    local rc9=$?
    if [ $rc9 != 1 ] || [ "$(grep -c '^capert:' "$w/e9")" != 1 ] ||
        ! grep -q '^capert: error: `CAPE_MERGE=garbage` is not a merge mode' "$w/e9" ||
        grep -q 'attempt 1 failed' "$w/e9" ||
        ! grep -q '^caperun: error: the job stopped with a runtime error (attempt 1' "$w/e9"; then
        fail "a bad setting under caperun ($who)" "status $rc9; expected one capert error, no relaunch" "$w/e9"
    else
        pass "a bad setting under caperun ($who)" "one line, not relaunched"
    fi

    # 4. a new directory is 0700, its files 0600
    ck=$w/new/ck
    ckdir_as "$who" "umask 022; $run -np 2 --checkpoint $ck $bin <$w/input" >"$w/o6" 2>"$w/e6"
    local modes
    modes="$(mode_of "$ck") $(for f in cape.log status output stdin; do mode_of "$ck/$f"; done | tr '\n' ' ')"
    if [ "$modes" != "700 600 600 600 600 " ]; then
        fail "new directory 0700, files 0600 ($who)" "modes (dir cape.log status output stdin): $modes" "$w/e6"
    else
        pass "new directory 0700, files 0600 ($who)"
    fi
}

ckdir_run() {
    local base=$OUT/ckdir
    mkdir -p "$base/root"
    chmod 700 "$base/root"
    if [ "$(id -u)" != 0 ]; then
        # an ordinary user: "another user's directory" is one of root's
        ckdir_checks "$(id -un)" "$base/root" root
        echo "      (as an ordinary user only: the root cases need root)"
        return
    fi
    if ! id "$CKDIR_USER" >/dev/null 2>&1 && ! useradd -m "$CKDIR_USER" 2>/dev/null; then
        fail "checkpoint directory tests" "cannot create the user $CKDIR_USER"
        return
    fi
    ckdir_checks root "$base/root" "$CKDIR_USER"
    local uw
    uw=$(mktemp -d /tmp/capecc-ckdir.XXXXXX)
    chmod 755 "$uw" && chown "$CKDIR_USER" "$uw"
    ckdir_checks "$CKDIR_USER" "$uw" root
    rm -rf "$uw"
    ckdir_root_only "$base/root"
}

# root: a full disk, a directory made unwritable mid-run, a hang until --timeout
ckdir_root_only() { # work directory
    local w=$1 bin=$1/ftd$$ ck
    # a full disk: the log outgrows a 2 MiB tmpfs; the runtime records `error` in the space
    # reserved for the status, so caperun does not relaunch
    ck=$w/full
    mkdir -p "$ck"
    if mount -t tmpfs -o size=2m,mode=700 tmpfs "$ck"; then
        # without compaction: the log must outgrow the disk
        CAPE_CHECKPOINT_COMPACT=0 "$CAPERUN" -np 2 --checkpoint "$ck" "$bin" <"$INPUT" >"$w/of" 2>"$w/ef"
        local rc=$?
        umount "$ck"
        if [ $rc != 1 ] || [ "$(grep -c '^capert: error: .*No space left on device' "$w/ef")" != 1 ] ||
            grep -q 'attempt 1 failed' "$w/ef" ||
            ! grep -q '^caperun: error: the job stopped with a runtime error (attempt 1' "$w/ef"; then
            fail "full disk not retried" "status $rc; expected one capert error, no relaunch" "$w/ef"
        else
            pass "full disk not retried" "$(grep -m1 '^capert: error:' "$w/ef" | cut -c1-90)"
        fi
    else
        fail "full disk not retried" "cannot mount a tmpfs"
    fi

    # the directory made unwritable while the job runs (chattr +i: root too)
    ck=$w/frozen
    "$CAPERUN" -np 2 --checkpoint "$ck" "$bin" <"$INPUT" >"$w/oz" 2>"$w/ez" &
    local job=$!
    wait_regions "$ck/cape.log" 20 && chattr +i "$ck"
    wait $job
    rc=$?
    chattr -i "$ck"
    if [ $rc != 1 ] || grep -q 'built with capecc' "$w/ez" ||
        ! grep -q '^capert: error: cannot write `.*/status`: Operation not permitted' "$w/ez" ||
        ! grep -q "^caperun: error: attempt 1 ended (.*) without writing \`$ck/status\`: the checkpoint directory cannot be written: Operation not permitted" "$w/ez"; then
        fail "directory made unwritable mid-run" "status $rc, expected the runtime's and caperun's errors" "$w/ez"
    else
        pass "directory made unwritable mid-run" "reported, not relaunched"
    fi

    # a hang (a rank stopped after region 50) until --timeout: the stall is time lost, even
    # though mpirun continues the stopped rank (SIGCONT) and the log grows while it is killed
    ck=$w/hang
    local name=ftd$$h
    cp "$bin" "$w/$name"
    "$CAPERUN" -np 2 --timeout 5 --retries 0 --checkpoint "$ck" "$w/$name" 20000 <"$INPUT" >"$w/oh" 2>"$w/eh" &
    job=$!
    local stopped="" lost
    if wait_regions "$ck/cape.log" 50; then
        stopped=$(pgrep -x "$name" | head -1)
        kill -STOP "$stopped"
    fi
    wait $job
    lost=$(sed -n 's/.* \([0-9.]*\) s of work lost.*/\1/p' "$w/eh")
    if [ -z "$stopped" ] || [ -z "$lost" ]; then
        fail "hang until --timeout is time lost" "no rank stopped or no report" "$w/eh"
    elif [ "${lost%.*}" -lt 2 ]; then
        fail "hang until --timeout is time lost" "reported $lost s lost after a stall of about 4 s" "$w/eh"
    else
        pass "hang until --timeout is time lost" "$lost s reported"
    fi
}
