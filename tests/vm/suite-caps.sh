# suite-caps.sh — the capability lines for APM, DC and UMR (runtime/transport/verbs/verbs_caps.c),
# sourced by run-verbs-suite (check, MRUN, PROGS). rmp-info --devices and RMP_VERBOSE must say
# what the device offers and what rmp does with it. The patterns name soft-RoCE's answers when
# the device is rxe0 (the VM); on another device, only that the three lines are there.
caps_checks() {
    local apm='AUTO_PATH_MIG: ' dc='DC: ' umr='UMR: '
    if [ "${RXE_DEV:-}" = rxe0 ]; then
        apm='AUTO_PATH_MIG: reported by rxe0, not used: soft-RoCE stores an alternate path but its requester never migrates'
        dc='DC: no: rxe0 is not an mlx5 device \((libmlx5 not installed|mlx5dv_is_supported: no)\)'
        umr='UMR: no: rxe0 is not an mlx5 device'
    fi
    check caps-rmp-info 60 0 "^  device ${RXE_DEV:-[a-z]}" "^    $apm" "^    $dc" "^    $umr" -- bin/rmp-info --devices
    check caps-verbose-n2 120 0 "^allreduce OK" "rmp\[0\]: verbs: $apm" "rmp\[1\]: verbs: $dc" \
        "rmp\[1\]: verbs: $umr" -- env RMP_TRANSPORT=verbs RMP_VERBOSE=1 "$MRUN" -n 2 bin/examples/allreduce
}
