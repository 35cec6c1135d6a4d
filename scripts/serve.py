#!/usr/bin/env python3
"""Serves a folder on 127.0.0.1 as `python3 -m http.server` does, with the two headers that make
the page cross-origin isolated, so the model in the tab can use threads (SharedArrayBuffer):
Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp. Without
them it runs single-threaded; everything else is the same.

    python3 scripts/serve.py --directory target/site 8000
"""
import argparse
import functools
import http.server


class Isolated(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--directory", default=".")
    parser.add_argument("port", type=int, nargs="?", default=8000)
    args = parser.parse_args()
    handler = functools.partial(Isolated, directory=args.directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
