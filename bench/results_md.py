"""results_md.py - the bench scripts' one way of writing their section of
bench/RESULTS.md: a section already there is replaced where it stands (up
to the next `## ` heading), a new one goes before `before` (the History
section), or at the end when there is no such heading."""


def replace_section(path, heading, text, before="## History"):
    try:
        with open(path) as f:
            old = f.read()
    except FileNotFoundError:
        old = ""
    if heading in old:
        start = old.index(heading)
        end = old.find("\n## ", start + len(heading))
        end = len(old) if end < 0 else end + 1
        new = old[:start] + text + "\n" + old[end:]
    elif before in old:
        at = old.index(before)
        new = old[:at] + text + "\n" + old[at:]
    else:
        new = old + ("\n" if old else "") + text + "\n"
    with open(path, "w") as f:
        f.write(new)
