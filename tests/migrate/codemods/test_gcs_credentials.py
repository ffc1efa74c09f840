"""GcsCredentialUpload: `tf.contrib.cloud.configure_gcs(...)` statements go, with MIG103 saying what to check."""

from tests.migrate.codemods.support import assert_codemod, assert_unchanged

NAME = "GcsCredentialUpload"


def test_the_colab_credential_upload_is_removed_with_an_info_finding():
    assert_codemod(NAME, """
        import tensorflow as tf
        from google.colab import auth

        auth.authenticate_user()
        with tf.Session(TPU_ADDRESS) as session:
            auth_info = json.load(open('/content/adc.json'))
            tf.contrib.cloud.configure_gcs(session, credentials=auth_info)
        if use_tpu:
            tf.contrib.cloud.configure_gcs(tf.Session(TPU_ADDRESS))
        """, """
        import tensorflow as tf
        from google.colab import auth

        auth.authenticate_user()
        with tf.Session(TPU_ADDRESS) as session:
            auth_info = json.load(open('/content/adc.json'))
        if use_tpu:
            pass
        """, findings=["7:5 MIG103", "9:5 MIG103"])


def test_a_call_used_as_a_value_is_left_to_the_generic_findings():
    assert_unchanged(NAME, """
        import tensorflow as tf

        result = tf.contrib.cloud.configure_gcs(session)
        """)
