"""The embedding function of the store's semantic index (langgraph.json `store.index.embed`): a
stand-in that needs no network, words hashed into 64 buckets (the same buckets as the JS example's,
so either language's vectors compare)."""

import re

DIMS = 64


def _bucket(word: str) -> int:
    value = 2166136261
    for char in word:
        value = ((value ^ ord(char)) * 16777619) & 0xFFFFFFFF
    return value % DIMS


async def embed(texts: list[str]) -> list[list[float]]:
    vectors = []
    for text in texts:
        vector = [0.0] * DIMS
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            vector[_bucket(word)] += 1
        vectors.append(vector)
    return vectors
