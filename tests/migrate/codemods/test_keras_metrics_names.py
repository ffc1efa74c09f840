"""KerasMetricsNames: reads of `<x>.metrics_names` go through the helper (Keras 2's list)."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "KerasMetricsNames"


def test_reads_go_through_the_helper_and_writes_are_left():
    assert_codemod(NAME, """
        import tensorflow as tf

        for name, value in zip(model.metrics_names, scores):
            print(name, value)
        result = dict(zip(self.model.metrics_names, result)), scores[model.metrics_names.index('acc')]
        model.metrics_names = ['loss']
        """, """
        import tensorflow as tf
        import estimator_bridge.compat.keras_methods

        for name, value in zip(estimator_bridge.compat.keras_methods.metrics_names(model), scores):
            print(name, value)
        result = dict(zip(estimator_bridge.compat.keras_methods.metrics_names(self.model), result)), scores[estimator_bridge.compat.keras_methods.metrics_names(model).index('acc')]
        model.metrics_names = ['loss']
        """)


def test_the_helper_itself_is_not_wrapped_again():
    assert_unchanged(NAME, """
        import estimator_bridge.compat.keras_methods

        names = estimator_bridge.compat.keras_methods.metrics_names(model)
        """)
