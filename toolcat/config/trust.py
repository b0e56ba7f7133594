"""Whether a configuration file is trusted, and what it may do: the one place that decides.

A `toolcat.yaml` (or pyproject.toml's `[tool.toolcat]`) changes what toolcat reads, runs and
reports, so it is read only where the user put it, and every file it names is held to the
same rule as the configuration itself:

- Discovery walks up from the working folder and stops at the repository root (the first
  folder holding `.git`) or at $HOME, whichever comes first: a file above is never read.
- A configuration file, and every file or folder it names (catalogs, profile, tuning, lint
  baseline and lockfile, `refs.roots`), must belong to the user (or root) and must not be
  writable by others: not by the world, not by a group other than the user's own private
  group. A symbolic link is held to it twice: the link, and what it points to. A folder
  named in $TOOLCAT_TRUST is exempt (as git's safe.directory: a checkout another uid owns,
  mounted into a container).
- A Python catalog that the user did not type on the command line (named by a configuration
  file or $TOOLCAT_CATALOG) is imported, which runs its code, only inside a folder the user
  trusts by name in $TOOLCAT_TRUST.
- A profile that a configuration file chose and that sends requests (the `api` gateway
  strategy, with a key taken from the environment) is used only inside a folder of
  $TOOLCAT_TRUST.
- `toolcat serve` starts the servers a catalog records (a command, or a URL with headers
  from the environment), and sends requests to the API an OpenAPI document names; a
  catalog that configuration or $TOOLCAT_CATALOG chose is served with them only inside a
  folder of $TOOLCAT_TRUST.
- `refs.roots`, which lets a `$ref` read files beyond a catalog's folder, may name only
  folders inside the configuration's own tree (its repository, or its folder when there is
  none), or inside a folder of $TOOLCAT_TRUST.
- Settings that relax safety (`mcp: {unannotated: safe}`; a profile's `allow_unsafe: true`
  or `approval: ask|allow`) are taken only from the user's own files: the command line
  (`--profile`, `--allow-unsafe`), the bundled profiles, the user's configuration folder
  ($XDG_CONFIG_HOME/toolcat), or a folder of $TOOLCAT_TRUST. A repository's toolcat.yaml,
  or a profile it names, is owned by whoever cloned it and proves nothing: there they are
  ignored, with a warning (`relaxing_from`).
- A configuration file may not silence the security rules (ids starting with
  SECURITY_RULES): not ignore them, leave them out of `select`, nor lower their severity.
  Reviewed findings are accepted one by one in a baseline, or by `--ignore` on the command
  line, which the user types.

Imports only rooms below it (source); see docs/architecture.md.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from toolcat.config.paths import bundled
from toolcat.errors import ConfigError
from toolcat.model import SourceRef

ENV_TRUST = "TOOLCAT_TRUST"
SECURITY_RULES = "TC6"  # rule ids a configuration file cannot silence
REPOSITORY_MARK = ".git"  # a folder, or a file in a worktree or submodule


def home() -> Path | None:
    try:
        return Path.home().resolve()
    except (RuntimeError, KeyError, OSError):  # no $HOME and no passwd entry
        return None


def is_boundary(folder: Path, home_folder: Path | None) -> bool:
    """Whether discovery stops at `folder`: a repository root, or $HOME."""
    return folder == home_folder or os.path.lexists(folder / REPOSITORY_MARK)


def _own_private_group(gid: int) -> bool:
    """The user's primary group when it is private (named after the user, no other member):
    group-writable there is writable by the user alone, as a umask of 002 makes files."""
    import grp
    import pwd

    try:
        user = pwd.getpwuid(os.getuid())
        group = grp.getgrgid(gid)
    except KeyError:
        return False
    return (user.pw_gid == gid and group.gr_name == user.pw_name
            and set(group.gr_mem) <= {user.pw_name})


def _problem(info: os.stat_result, *, link: bool = False) -> str | None:
    """Why a file with this status cannot be trusted, or None."""
    import grp
    import pwd

    if info.st_uid not in (os.getuid(), 0):
        try:
            owner = pwd.getpwuid(info.st_uid).pw_name
        except KeyError:
            owner = f"uid {info.st_uid}"
        return f"it belongs to {owner}, not to you"
    if link:  # a link's own mode bits mean nothing
        return None
    sticky = stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX
    if info.st_mode & stat.S_IWOTH and not sticky:
        return "anyone may write it"
    if info.st_mode & stat.S_IWGRP and not sticky and not _own_private_group(info.st_gid):
        try:
            group = grp.getgrgid(info.st_gid).gr_name
        except KeyError:
            group = f"gid {info.st_gid}"
        return f"group {group} may write it"
    return None


def check_owned(path: Path, what: str, where: SourceRef | None = None) -> None:
    """Refuse `path` (and, for a link, what it points to) unless the user or root owns it and
    no one else may write it. A path that does not exist passes: its reader says so.

    Raises:
        ConfigError: naming the file, `what` it is, why, and how to fix it.
    """
    if not hasattr(os, "getuid"):  # Windows: ownership is a matter of ACLs, not checked here
        return
    if is_inside(path, trusted_folders()):  # as git's safe.directory: a checkout mounted
        return                              # into a container, owned by the host's user
    try:
        info = path.lstat()
    except OSError:
        return
    problem = _problem(info, link=stat.S_ISLNK(info.st_mode))
    if problem is None and stat.S_ISLNK(info.st_mode):
        try:
            info = path.stat()
        except OSError:
            return
        problem = _problem(info)
        if problem:
            problem = f"it links to {path.resolve()}, and {problem}"
    if problem is None:
        return
    raise ConfigError(
        f"refusing {what} {path}: {problem}; toolcat reads configuration, and the files it "
        "names, only when they are yours and no one else may write them (chown it, chmod "
        f"go-w it, or trust its folder with {ENV_TRUST}={path.absolute().parent})",
        where=where)


def trusted_folders(env: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The folders of $TOOLCAT_TRUST (separated like $PATH), resolved.

    Raises:
        ConfigError: an entry is relative: it would trust whatever folder the user is in.
    """
    value = (os.environ if env is None else env).get(ENV_TRUST, "")
    folders = [Path(p).expanduser() for p in value.split(os.pathsep) if p.strip()]
    for folder in folders:
        if not folder.is_absolute():
            raise ConfigError(f"${ENV_TRUST}: '{folder}' is not an absolute folder; a relative "
                              "one would trust whatever folder you are in")
    return tuple(folder.resolve() for folder in folders)


def is_inside(path: Path, folders: tuple[Path, ...]) -> bool:
    real = path.resolve()
    return any(real == folder or folder in real.parents for folder in folders)


def require_python_trust(shown: str, location: Path, named_by: str,
                         where: SourceRef | None = None,
                         env: Mapping[str, str] | None = None) -> None:
    """Refuse to import the Python catalog `shown` (at `location`: its `.py` file, or the
    folder a module name is imported from), which `named_by` named, unless it is inside a
    folder of $TOOLCAT_TRUST. A catalog typed on the command line never comes here.

    Raises:
        ConfigError: saying how to opt in.
    """
    if is_inside(location, trusted_folders(env)):
        return
    real = location.resolve()
    folder = real if real.is_dir() else real.parent
    raise ConfigError(
        f"not importing the Python catalog '{shown}' that {named_by} names: importing runs "
        f"its code; name it with -c, or trust its folder with {ENV_TRUST}={folder}",
        where=where)


def require_network_trust(endpoint: str, profile: str, named_by: str,
                          env: Mapping[str, str] | None = None) -> None:
    """Refuse a profile that `named_by` (a configuration file) chose, and that would send
    requests, with a key from the environment, to `endpoint` (the api gateway strategy),
    unless the profile is inside a folder of $TOOLCAT_TRUST. `--profile` never comes here.

    Raises:
        ConfigError: saying how to opt in.
    """
    location = Path(profile)
    if is_inside(location, (*trusted_folders(env), bundled("profiles").resolve())):
        return  # toolcat's own profiles are not a stranger's
    raise ConfigError(
        f"not using the profile {profile} that {named_by} names: it sends searches (and "
        f"gateway.api.api_key) to {endpoint}; pass it with --profile, or trust its folder "
        f"with {ENV_TRUST}={location.resolve().parent}")


def require_launch_trust(server: str, launches: str, catalog_file: Path, named_by: str,
                         env: Mapping[str, str] | None = None) -> None:
    """Refuse to serve a catalog that `named_by` (a configuration file or $TOOLCAT_CATALOG)
    chose and that records how to start `server` (`launches`: its command or URL), unless
    the catalog file is inside a folder of $TOOLCAT_TRUST. `-c` never comes here.

    Raises:
        ConfigError: saying how to opt in.
    """
    if is_inside(catalog_file, trusted_folders(env)):
        return
    raise ConfigError(
        f"not serving the catalog {catalog_file} that {named_by} names: serving it runs "
        f"{launches} for server '{server}'; name it with -c, or trust its folder with "
        f"{ENV_TRUST}={catalog_file.resolve().parent}")


def user_config_folder(env: Mapping[str, str] | None = None) -> Path | None:
    """The user's own configuration folder, $XDG_CONFIG_HOME/toolcat (else
    ~/.config/toolcat); None when $XDG_CONFIG_HOME is relative (the XDG rule: ignored)."""
    value = (os.environ if env is None else env).get("XDG_CONFIG_HOME")
    if value and Path(value).is_absolute():
        return Path(value).resolve() / "toolcat"
    folder = home()
    return folder / ".config" / "toolcat" if folder is not None else None


def may_relax_safety(path: Path, env: Mapping[str, str] | None = None) -> bool:
    """Whether a setting that relaxes safety may be taken from the file `path`: one of the
    bundled profiles, or a file in the user's configuration folder or a folder of
    $TOOLCAT_TRUST. A repository's toolcat.yaml (or a profile it names) may not: cloning
    a repository makes its files the user's, but not their choice."""
    own = user_config_folder(env)
    folders = (*trusted_folders(env), bundled("profiles").resolve(),
               *((own,) if own is not None else ()))
    return is_inside(path, folders)


def relaxing_from(setting: str, path: Path) -> str:
    """The warning for a setting that relaxes safety, found in `path` and ignored."""
    return (f"ignoring {setting} of {path}: settings that relax safety are taken only from "
            "the command line (--profile, --allow-unsafe), your own configuration folder "
            f"or a folder of ${ENV_TRUST}, never from a repository's files (trust this one "
            f"with {ENV_TRUST}={path.resolve().parent})")


def check_reach(folder: Path, root: Path, setting: str, where: SourceRef | None = None,
                env: Mapping[str, str] | None = None) -> None:
    """Refuse a folder a configuration lets toolcat read (`setting`) outside its own tree
    `root`, unless $TOOLCAT_TRUST names a folder holding it.

    Raises:
        ConfigError: saying how to opt in.
    """
    if is_inside(folder, (root.resolve(),)) or is_inside(folder, trusted_folders(env)):
        return
    raise ConfigError(
        f"{setting}: '{folder}' is outside {root}, the folder tree this configuration "
        f"governs; trust it with {ENV_TRUST}={folder}", where=where)
