"""Requests no tool of any catalog fits: greetings, thanks, small talk. `toolcat tune` scores
them with every catalog and fits pick's "no tool fits" threshold above them (with the
requests a user labeled `relevant: []`), so that "hello" shows no tool.

Written for toolcat (not taken from a benchmark); social phrases only, no questions a tool
could answer (no weather, time, jokes or facts), so a catalog with a tool for those still
gets its requests. A separate set of other phrases, never learned from, measures the
false-accept rate: tests/data/tune/chitchat.jsonl.
"""

from __future__ import annotations

CHITCHAT = (
    "hello", "hi", "hi there", "hey", "hey!", "good morning", "good afternoon",
    "good evening", "good night", "howdy", "hello, how are you?", "how are you doing today?",
    "how's it going?", "what's up?", "nice to meet you", "thanks", "thank you",
    "thank you so much!", "thanks a lot, that helped", "cheers", "ok", "okay", "cool",
    "great, thanks", "awesome", "perfect", "got it", "sounds good", "sure", "yes",
    "no", "no thanks", "never mind", "bye", "goodbye", "see you later", "talk to you soon",
    "have a nice day", "you're welcome", "sorry", "my bad", "lol", "haha", "hmm",
    "I see", "interesting", "wow", "who are you?", "are you a bot?", "what's your name?",
    "I'm just saying hi", "just testing", "test", "can you hear me?", "are you there?",
    "I'm bored", "I'm tired today", "I had a long day", "that's all for now",
    "you are very helpful",
)
