#!/usr/bin/env python3
"""as_unprivileged.py CMD...: run CMD as an unprivileged user.

As root, file permissions do not apply (CAP_DAC_OVERRIDE), so a test of an
unreadable file would read it anyway: drop to nobody (uid/gid 65534, no
supplementary groups) first. As any other user, run CMD as it is. The exit
status is CMD's."""
import os
import sys

if os.geteuid() == 0:
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
os.execvp(sys.argv[1], sys.argv[1:])
