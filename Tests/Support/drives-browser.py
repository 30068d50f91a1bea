#!/usr/bin/python3
"""Drives and servers inside the browser, read from the rendered screen: a FAT disk image
attached and not mounted shows in the volumes view as "not mounted", Enter mounts and opens it, E
is refused while another process holds a file there (the holder named), E ejects after; C asks
for an address, the password is asked masked, a wrong one asked again, the right one connects and
the share opens; Esc gives up a server that never answers at once.

usage: drives-browser.py QLBROWSE WORKDIR

Runs in a network namespace of its own (its Samba on 127.0.0.1:445 is nobody else's). Prints the
screens it checks (the volumes view with a drive not mounted, the eject message, the connect and
password prompts) for the eye. Needs root; exit 77 without it or without samba and smbnetfs.
"""
import os, shutil, socket, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402
import servers  # noqa: E402


def show(title, browser):
    print('--- %s ---' % title)
    print('\n'.join(line.rstrip() for line in browser.text().splitlines()))


def row_of(browser, text):
    """The volumes view's line index (0 = first volume) of the line holding `text`."""
    lines = [l for l in browser.text().splitlines() if any(k in l for k in ('local ', 'removable ', 'network '))]
    return next((i for i, l in enumerate(lines) if text in l), None)


def main():
    if os.geteuid() != 0 or not all(servers.sbin(t) for t in ('losetup', 'mkfs.vfat', 'smbd', 'smbnetfs')):
        print('drives-browser.py: needs root, losetup, dosfstools, samba and smbnetfs')
        return 77
    if os.environ.get('QLBROWSE_TEST_NETNS') != '1':
        os.environ['QLBROWSE_TEST_NETNS'] = '1'
        os.execvp('unshare', ['unshare', '--net', '--', sys.executable] + sys.argv)
    subprocess.run([servers.sbin('ip'), 'link', 'set', 'lo', 'up'], check=True)
    qlbrowse, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work + '/run', mode=0o700)
    os.makedirs(work + '/home')
    image = work + '/stick.img'
    with open(image, 'wb') as f:
        f.truncate(32 << 20)
    subprocess.run([servers.sbin('mkfs.vfat'), '-n', 'QLSTICK', image], check=True, stdout=subprocess.DEVNULL)
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'HOME': work + '/home', 'USER': 'root',
           'PATH': os.environ.get('PATH', '/usr/bin:/bin') + ':/usr/sbin:/sbin', 'XDG_RUNTIME_DIR': work + '/run'}
    for name in ('CACHE', 'STATE', 'CONFIG', 'DATA'):
        env['XDG_%s_HOME' % name] = work + '/xdg'
    results, browser, holder, device, quiet = [], None, None, None, None
    point = '/media/root/QLSTICK'
    try:
        device = subprocess.run([servers.sbin('losetup'), '-f', '--show', image], check=True, capture_output=True, text=True).stdout.strip()
        servers.start_smb(work + '/smb')
        browser = Browser([qlbrowse, '--graphics', 'none', '--volumes', work + '/home'], env)
        listed = browser.wait_for('not mounted (%s)' % device, 10) is not None
        show('the volumes view with a drive not mounted', browser)
        row = row_of(browser, device)
        results.append(('the volumes view lists the attached image as not mounted', listed and row is not None, device))
        with open(work + '/second.img', 'wb') as f:
            f.truncate(16 << 20)
        subprocess.run([servers.sbin('mkfs.vfat'), '-n', 'QLSECOND', work + '/second.img'], check=True, stdout=subprocess.DEVNULL)
        plugged = time.monotonic()
        second = subprocess.run([servers.sbin('losetup'), '-f', '--show', work + '/second.img'], check=True, capture_output=True, text=True).stdout.strip()
        appeared = browser.wait_for('not mounted (%s)' % second, 6)
        results.append(('a drive attached while the view is open appears without a key', appeared is not None,
                        '%.1f s after losetup' % (time.monotonic() - plugged) if appeared is not None else browser.text()))
        subprocess.run([servers.sbin('losetup'), '-d', second], capture_output=True)
        browser.wait_for('QLSTICK', 1)
        for _ in range(3):  # other tests' mounts may come and go meanwhile, moving the rows
            browser.send(b'g' + b'j' * (row_of(browser, device) or 0))
            if browser.wait_for('QLSTICK: not mounted', 2) is not None:
                break
        browser.send(b'\r')
        mounted = browser.wait_for('QLSTICK mounted at %s' % point, 15) is not None
        results.append(('Enter mounts it and opens it', mounted and os.path.ismount(point) and (' %s' % point) in browser.text().splitlines()[0],
                        browser.text().splitlines()[-1].strip()))

        with open(point + '/note.txt', 'w') as f:
            f.write('held')
        holder = subprocess.Popen([sys.executable, '-c', 'import sys,time; f=open(sys.argv[1]); print(1, flush=True); time.sleep(60)', point + '/note.txt'],
                                  stdout=subprocess.PIPE, cwd=work)
        holder.stdout.readline()
        browser.send(b'V')
        browser.wait_for('fuse.fusefat', 5)  # the monitor has seen the mount: the view opens on it
        browser.send(b'\x1bV')
        browser.wait_for('QLSTICK: ', 5)
        browser.send(b'E')
        refused = browser.wait_for('(pid %d) has note.txt open' % holder.pid, 10)
        show('eject refused', browser)
        results.append(('E is refused while a file is held open, the holder named', refused is not None and os.path.ismount(point),
                        browser.text().splitlines()[-1].strip()))
        holder.kill()
        holder.wait()
        holder = None
        browser.send(b'E')
        ejected = browser.wait_for('QLSTICK can be removed safely', 10)
        show('ejected', browser)
        results.append(('E after: ejected, and the browser left the stick', ejected is not None and not os.path.exists(point)
                        and point not in browser.text().splitlines()[0], browser.text().splitlines()[0].strip()))

        browser.send(b'\x1bVC')
        asked = browser.wait_for('server (smb://…, sftp://… or ssh://…', 5) is not None
        browser.send(('smb://alice@127.0.0.1/priv').encode())
        show('the connect prompt', browser)
        browser.send(b'\r')
        wanted = browser.wait_for('password for alice@127.0.0.1:', 15) is not None
        browser.send(b'not it')
        masked = browser.wait_for('••••••', 2) is not None and 'not it' not in browser.text()
        show('the password prompt (masked)', browser)
        results.append(('C asks for the address, then the password, masked', asked and wanted and masked, ''))
        browser.send(b'\r')
        again = browser.wait_for('wrong password (2 more tries) · password for alice@127.0.0.1:', 15) is not None
        show('a wrong password, asked again', browser)
        browser.send(servers.PASSWORD.encode() + b'\r')
        connected = browser.wait_for('report.txt', 15) is not None and browser.wait_for('connected to smb://alice@127.0.0.1/priv', 2) is not None
        results.append(('a wrong password is asked again; the right one connects and opens the share', again and connected,
                        browser.text().splitlines()[-1].strip()))
        # Where secret-tool is installed the browser then asks whether the keyring keeps it: no.
        if browser.wait_for('keep the password in the keyring? (y/N)', 2) is not None:
            browser.send(b'n')
            browser.wait_for('the password was not kept', 5)

        quiet = socket.socket()  # a server that takes the connection and never says a word
        quiet.bind(('127.0.0.1', 0))
        quiet.listen(8)
        browser.send(b'VC')
        browser.wait_for('server (smb://…, sftp://… or ssh://…', 5)
        browser.send(('sftp://127.0.0.1:%d/x' % quiet.getsockname()[1]).encode() + b'\r')
        browser.wait_for('Esc gives up', 5)
        time.sleep(1)
        started = time.monotonic()
        browser.send(b'\x1b')
        cancelled = browser.wait_for('cancelled', 3)
        results.append(('Esc gives up a server that never answers, at once', cancelled is not None and time.monotonic() - started < 2,
                        browser.text().splitlines()[-1].strip()))
        results.append(browser.quit(b'q'))
        browser = None
        left = [line.split()[4] for line in open('/proc/self/mountinfo') if work in line and 'fuse.sshfs' in line]
        results.append(('quitting right after Esc leaves no mount behind (sshfs mounts before its handshake)', not left, ' '.join(left)))
    finally:
        if browser is not None:
            browser.kill()
        if holder is not None:
            holder.kill()
        if quiet is not None:
            quiet.close()
        for mount in [point] + [work + '/run/qlbrowse/servers/' + n for n in (os.listdir(work + '/run/qlbrowse/servers') if os.path.isdir(work + '/run/qlbrowse/servers') else [])]:
            if os.path.ismount(mount):
                subprocess.run(['fusermount3', '-uz', mount], capture_output=True)
        if os.path.isdir(point) and not os.path.ismount(point):
            os.rmdir(point)
        if device:
            subprocess.run([servers.sbin('losetup'), '-d', device], capture_output=True)
        servers.stop_smb(work + '/smb')
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
