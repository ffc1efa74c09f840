"""`inspect.getargspec` on a TF 1.x program's functions (Python 3.7 in TF 1.15's interpreter).

Prints, as JSON, the ArgSpec of a plain function, one with defaults, *args/**kwargs, a bound
method, a tf-slim-style preprocessing function, and what a keyword-only function raises.
"""

import functools
import inspect
import json

import tensorflow as tf


def plain(image, height, width):
  return image


def with_defaults(image, height, width, resize_side_min=256, resize_side_max=512):
  return image


def variadic(image, *args, **kwargs):
  return image


class Preprocessor(object):
  def preprocess(self, image, is_training=False):
    return image


def keyword_only(image, *, fast_mode=True):
  return image


def spec(fn):
  try:
    a = inspect.getargspec(fn)
  except (ValueError, TypeError) as error:
    return {"error": type(error).__name__ + ": " + str(error)}
  args, varargs, keywords, defaults = a
  return {"args": args, "varargs": varargs, "keywords": keywords,
          "defaults": list(defaults) if defaults else defaults, "fields": list(a._fields)}


print(json.dumps({
    "tf": tf.__version__[:0],
    "plain": spec(plain), "with_defaults": spec(with_defaults), "variadic": spec(variadic),
    "method": spec(Preprocessor().preprocess), "keyword_only": spec(keyword_only),
    "uses": "resize_side_min" in inspect.getargspec(with_defaults).args,
}))
