#!/usr/bin/env python3
"""A TCP proxy that delays what the upstream server sends by a fixed time: simulated network latency on the
replication link of the topology stage's PostgreSQL standby (on localhost a standby is otherwise never behind).

When the upstream side closes (the primary was killed), the bytes still waiting are dropped, not delivered: what a
host crash does to data in flight. Usage: delay-proxy.py LISTEN_PORT UPSTREAM_PORT DELAY_MS
"""
import asyncio
import sys


async def pipe_delayed(reader, writer, delay):
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            if data is None:
                return
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()

    sender = asyncio.create_task(deliver())
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            queue.put_nowait((loop.time() + delay, data))
    finally:
        # The upstream is gone: what it sent in the last DELAY_MS never arrives.
        sender.cancel()
        writer.close()


async def pipe(reader, writer):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


async def main(listen_port, upstream_port, delay):
    async def handle(client_reader, client_writer):
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, up_writer), pipe_delayed(up_reader, client_writer, delay),
                             return_exceptions=True)

    server = await asyncio.start_server(handle, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1000.0))
