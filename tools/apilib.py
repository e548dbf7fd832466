"""apilib — reads api/mpi.api (the format of api/README.md) for tools/gen-api and the Fortran
generators: load(path) gives the entries, each with its arguments' C declarations, kinds,
directions and attributes, validated (an unknown kind, a len= naming no argument, a duplicate
name is an error with its line number, never a silently wrong binding).
"""
import re

KINDS = {"BUFFER", "COUNT", "DISP", "INT", "RANK", "TAG", "LOGICAL", "AINT", "OFFSET", "XCOUNT",
         "COMM", "GROUP", "DATATYPE", "OP", "REQUEST", "INFO", "WIN", "FILE", "ERRHANDLER",
         "MESSAGE", "SESSION", "STATUS", "STRING", "STRING_ARRAY", "STRING_ARRAY2", "FUNCTION",
         "EXTRA_STATE", "ATTRVAL", "CPTR", "DOUBLE", "FINT", "F08STATUS", "T_HANDLE", "OTHER"}
# The error class each kind implies (api/README.md's table): what generated glue raises.
KIND_CLASS = {"BUFFER": "MPI_ERR_BUFFER", "COUNT": "MPI_ERR_COUNT", "XCOUNT": "MPI_ERR_COUNT",
              "RANK": "MPI_ERR_RANK", "TAG": "MPI_ERR_TAG", "COMM": "MPI_ERR_COMM",
              "GROUP": "MPI_ERR_GROUP", "DATATYPE": "MPI_ERR_TYPE", "OP": "MPI_ERR_OP",
              "REQUEST": "MPI_ERR_REQUEST", "INFO": "MPI_ERR_INFO", "WIN": "MPI_ERR_WIN",
              "FILE": "MPI_ERR_FILE", "ERRHANDLER": "MPI_ERR_ARG", "MESSAGE": "MPI_ERR_REQUEST",
              "SESSION": "MPI_ERR_SESSION", "T_HANDLE": "MPI_T_ERR_INVALID_HANDLE"}
DIRS = {"in", "out", "inout"}
FLAGS = {"bigcount", "c_only", "f_noierror", "deprecated", "removed"}
VALUE_FLAGS = {"since", "errors"}
ATTRS_VALUE = {"len", "max", "type", "err", "c_big"}
ATTRS_BARE = {"opt", "f_omit", "big_only"}
# len= may also name these: properties of the call's communicator, not arguments.
LEN_PSEUDO = {"comm_size", "cart_ndims", "comm_remote_size", "indegree", "outdegree",
              "MPI_STATUS_SIZE", "?"}


class ApiError(Exception):
    pass


class Arg:
    def __init__(self, decl, kind, direction, attrs, line):
        self.decl, self.kind, self.dir, self.attrs, self.line = decl, kind, direction, attrs, line
        m = re.match(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)((?: ?\[[^]]*\])*)$", decl)
        if decl == "...":
            self.name, self.ctype, self.array = "...", "...", ""
        elif not m:
            raise ApiError(f"line {line}: cannot read the C declaration `{decl}`")
        else:
            self.ctype, self.name, self.array = m.group(1).strip(), m.group(2), m.group(3)
        self.is_array = bool(self.array) or "len" in attrs

    def big_decl(self):
        """The declaration in the _c twin (api/README.md: COUNT -> MPI_Count, DISP -> MPI_Aint)."""
        if "c_big" in self.attrs:
            return self.attrs["c_big"]
        to = {"COUNT": "MPI_Count", "DISP": "MPI_Aint"}.get(self.kind)
        if to and re.search(r"\bint\b", self.decl):
            return re.sub(r"\bint\b", to, self.decl, count=1)
        return self.decl


class Entry:
    def __init__(self, ret, name, flags, line, doc):
        self.ret, self.name, self.flags, self.line, self.doc = ret, name, flags, line, doc
        self.all_args = []  # with the big_only ones, which only the _c twin has

    @property
    def args(self):
        """The int form's arguments."""
        return [a for a in self.all_args if "big_only" not in a.attrs]

    bigcount = property(lambda self: "bigcount" in self.flags)
    c_only = property(lambda self: "c_only" in self.flags)

    def arg(self, name):
        return next((a for a in self.args if a.name == name), None)

    def big_decls(self):
        """The _c twin's declarations (with its big_only arguments)."""
        return [a.big_decl() for a in self.all_args]

class Api:
    def __init__(self, entries):
        self.entries = entries
        self.by_name = {e.name: e for e in entries}


def _attrs(words, line):
    attrs = {}
    for w in words:
        k, eq, v = w.partition("=")
        if eq and k in ATTRS_VALUE or not eq and k in ATTRS_BARE:
            attrs[k] = v if eq else True
        else:
            raise ApiError(f"line {line}: unknown attribute `{w}`")
    return attrs


def _arg(text, line):
    decl, bar, spec = text.partition(" | ")
    if not bar:
        raise ApiError(f"line {line}: an argument line is `<C declaration> | <KIND> <dir> ...`")
    # c_big= holds a C declaration with spaces: it runs to the end of the line.
    big = None
    if " c_big=" in " " + spec:
        spec, _, big = (" " + spec).partition(" c_big=")
        spec = spec.strip()
    words = spec.split()
    if len(words) < 2 or words[0] not in KINDS or words[1] not in DIRS:
        raise ApiError(f"line {line}: `{spec}`: want a KIND ({', '.join(sorted(KINDS))}) "
                       f"and a direction (in, out, inout)")
    attrs = _attrs(words[2:], line)
    if big:
        attrs["c_big"] = big.strip()
    return Arg(decl.strip(), words[0], words[1], attrs, line)


def _header(text, line, doc):
    m = re.match(r"^(.+?) (MPI_\w+)((?: [a-z_]+(?:=\S*)?)*)$", text)
    if not m or not m.group(1).strip():
        raise ApiError(f"line {line}: an entry starts `<return type> <MPI_Name> [flag ...]`")
    flags = {}
    for w in m.group(3).split():
        k, eq, v = w.partition("=")
        if eq and k in VALUE_FLAGS:
            flags[k] = v
        elif not eq and k in FLAGS:
            flags[k] = True
        else:
            raise ApiError(f"line {line}: unknown flag `{w}`")
    return Entry(m.group(1).strip(), m.group(2), flags, line, doc)


def _check(e):
    names = [a.name for a in e.all_args]
    if len(set(names)) != len(names):
        raise ApiError(f"line {e.line}: {e.name}: two arguments share a name")
    for a in e.all_args:
        if "big_only" in a.attrs and not e.bigcount:
            raise ApiError(f"line {a.line}: {e.name}: big_only without the bigcount flag")
        ln = a.attrs.get("len")
        if isinstance(ln, str):
            for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", ln):
                if word not in names and word not in LEN_PSEUDO:
                    raise ApiError(f"line {a.line}: {e.name}: len={ln} names no argument")
        if a.kind == "FUNCTION" and "type" not in a.attrs:
            raise ApiError(f"line {a.line}: {e.name}: a FUNCTION needs type=")


def load(path):
    entries, doc, cur = [], [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("##"):
                doc.append(line[3:] if line.startswith("## ") else line[2:])
                continue
            text = line.split("#", 1)[0].rstrip()
            if not text:
                continue
            if text[0] in " \t":
                if cur is None:
                    raise ApiError(f"line {n}: an argument line before any entry")
                cur.all_args.append(_arg(text.strip(), n))
            else:
                cur = _header(text, n, doc)
                doc = []
                entries.append(cur)
    seen = set()
    for e in entries:
        if e.name in seen:
            raise ApiError(f"line {e.line}: {e.name} described twice")
        seen.add(e.name)
        _check(e)
    return Api(entries)
