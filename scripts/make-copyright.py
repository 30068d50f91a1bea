#!/usr/bin/python3
"""Write the package's machine-readable (DEP-5) copyright file to standard output.

Usage:
  scripts/make-copyright.py --runtime-packages "libc6 libvips42 …" --years 2025-2026

The binaries contain qlbrowse's own code and, linked statically, the Swift runtime and standard
library, swift-foundation (FoundationEssentials), libdispatch and swift-argument-parser: those get
Files paragraphs. The Debian libraries they load at run time (the packages dpkg-shlibdeps put in
Depends, passed as --runtime-packages) are not in the package; the header's Comment names each
one's licence, read from the `Files: *` paragraph of /usr/share/doc/PACKAGE/copyright, or, for the
few packages whose copyright file is not machine-readable, from the table below (checked by hand
against that file). A package found in neither stops the script: look its licence up and add it.
Stdlib only.
"""
import argparse
import os
import re
import sys

# Copyright files that are not in DEP-5 format (Debian 12), or have no `Files: *` paragraph.
NOT_MACHINE_READABLE = {
    "libc6": "LGPL-2.1+",
    "libcairo2": "LGPL-2.1 or MPL-1.1",
    "libgcc-s1": "GPL-3+ with GCC Runtime Library Exception",
    "libstdc++6": "GPL-3+ with GCC Runtime Library Exception",
    "libjpeg62-turbo": "BSD-BY-LC-NE (IJG) and BSD-3-clause and Zlib",
    "libturbojpeg0": "BSD-BY-LC-NE (IJG) and BSD-3-clause and Zlib",
    "libqpdf29": "Apache-2.0",
    "libwebp7": "BSD-3-clause",
}

RUNTIME_EXCEPTION = """\
 As an exception, if you use this Software to compile your source code and
 portions of this Software are embedded into the binary product as a result,
 you may redistribute such product without providing attribution as would
 otherwise be required by Sections 4(a), 4(b) and 4(d) of the License.

License: Apache-2.0
 Licensed under the Apache License, Version 2.0. On Debian systems, the full
 text of the Apache License, Version 2.0 is in
 /usr/share/common-licenses/Apache-2.0."""


def licence_of(package):
    """The licence short name of PACKAGE's main files, from its installed copyright file."""
    path = f"/usr/share/doc/{package}/copyright"
    if package in NOT_MACHINE_READABLE:
        return NOT_MACHINE_READABLE[package]
    if not os.path.exists(path):
        sys.exit(f"make-copyright: {path} is missing; is {package} installed?")
    with open(path, encoding="utf-8", errors="replace") as file:
        text = file.read()
    if text.startswith("Format:"):
        for paragraph in re.split(r"\n\s*\n", text):
            if re.search(r"^Files:\s*\*\s*$", paragraph, re.M):
                match = re.search(r"^License:\s*(.+)$", paragraph, re.M)
                if match:
                    return match.group(1).strip()
    sys.exit(f"make-copyright: cannot read the licence of {package} from {path}; "
             f"look it up and add it to NOT_MACHINE_READABLE in {sys.argv[0]}")


def main():
    arguments = argparse.ArgumentParser(description="Write the DEP-5 copyright file to standard output.")
    arguments.add_argument("--runtime-packages", required=True, help="space-separated package names")
    arguments.add_argument("--years", required=True, help="of qlbrowse's copyright: the git history's")
    options = arguments.parse_args()
    packages = sorted(set(options.runtime_packages.split()))
    width = max(len(package) for package in packages)
    linked = "\n".join(f"   {package.ljust(width)}  {licence_of(package)}" for package in packages)
    sys.stdout.write(f"""\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: qlbrowse
Comment: This package was built from the qlbrowse source tree by scripts/package.
 .
 At run time the programs load these Debian libraries (the package's Depends,
 computed by dpkg-shlibdeps); they are not part of this package, and each one's
 full terms are in /usr/share/doc/PACKAGE/copyright. Licence of each library's
 main files:
 .
{linked}
 .
 qlbrowse-thumbnailer links libpoppler-glib8, which is GPL-2 or GPL-3:
 whoever distributes this package distributes that combination.

Files: *
Copyright: {options.years} the qlbrowse authors
License: GPL-3+

Files: usr/bin/qlbrowse usr/libexec/qlbrowse/qlbrowse-thumbnailer
Copyright: {options.years} the qlbrowse authors
 Apple Inc. and the Swift project authors
License: GPL-3+ and Apache-2.0-with-Swift-runtime-exception and Apache-2.0
Comment: Besides qlbrowse's own code, both programs contain, linked statically,
 the Swift runtime and standard library, swift-foundation (FoundationEssentials,
 with swift-collections), and qlbrowse also swift-argument-parser: these are
 Apache-2.0 with the Runtime Library Exception. Both also contain
 swift-corelibs-libdispatch, whose sources name the Apache-2.0 licence without
 the exception.

License: GPL-3+
 This program is free software: you can redistribute it and/or modify it
 under the terms of the GNU General Public License as published by the Free
 Software Foundation, either version 3 of the License, or (at your option)
 any later version (the worker links poppler, which is GPL).
 .
 This program is distributed in the hope that it will be useful, but WITHOUT
 ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
 FOR A PARTICULAR PURPOSE. See the GNU General Public License for more details.
 .
 On Debian systems, the full text of the GNU General Public License version 3
 is in /usr/share/common-licenses/GPL-3.

License: Apache-2.0-with-Swift-runtime-exception
 Licensed under the Apache License, Version 2.0. On Debian systems, the full
 text of the Apache License, Version 2.0 is in
 /usr/share/common-licenses/Apache-2.0.
 .
 Runtime Library Exception to the Apache 2.0 License:
 .
{RUNTIME_EXCEPTION}
""")


if __name__ == "__main__":
    main()
