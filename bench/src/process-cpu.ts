/** CPU time of processes the bench started, read from Linux's /proc. */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports process times in clock ticks of 1/100 s (USER_HZ, fixed by its ABI). */
const MS_PER_TICK = 10;

/**
 * CPU time (user + system, ms) used so far by every live process of the process group `pgid`
 * (a server started detached, with the workers it spawned), or undefined where /proc is missing.
 */
export function processGroupCpuMs(pgid: number): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the command, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue; // field 5, pgrp
    ticks += Number(fields[11]) + Number(fields[12]); // fields 14 and 15, utime and stime
  }
  return ticks * MS_PER_TICK;
}
